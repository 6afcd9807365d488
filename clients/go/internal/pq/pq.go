// Package pq is the small part of libpq the examples need (the module uses
// the standard library only, so no Go driver): connect, run a statement
// with text parameters or a script of statements, prepared statements,
// LISTEN and waiting for a notification. A Conn is for one goroutine at a
// time, as a PGconn is.
package pq

/*
#cgo CFLAGS: -I/usr/include/postgresql
#cgo LDFLAGS: -lpq
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>

// Notices (NOTICE:, WARNING:) are not printed on stderr.
static void bt_quiet(void *arg, const char *message)
{
	(void) arg;
	(void) message;
}

static void bt_set_quiet(PGconn *c)
{
	PQsetNoticeProcessor(c, bt_quiet, NULL);
}

// Waits up to timeout_ms for a notification: 1 and its channel in *channel
// (malloc'd), 0 when none came, -1 when the connection failed.
static int bt_wait_notify(PGconn *c, int timeout_ms, char **channel)
{
	for (int pass = 0; pass < 2; pass++)
	{
		PGnotify   *n;
		struct pollfd p;
		int			r;

		if (!PQconsumeInput(c))
			return -1;
		if ((n = PQnotifies(c)) != NULL)
		{
			*channel = strdup(n->relname);
			PQfreemem(n);
			return 1;
		}
		if (pass == 1)
			return 0;
		p.fd = PQsocket(c);
		p.events = POLLIN;
		p.revents = 0;
		r = poll(&p, 1, timeout_ms);
		if (r < 0)
			return errno == EINTR ? 0 : -1;
		if (r == 0)
			return 0;
	}
	return 0;
}
*/
import "C"

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unsafe"
)

// Conn is one connection.
type Conn struct{ c *C.PGconn }

// Connect opens a connection; conninfo "" takes everything from the PG*
// environment variables (PGHOST, PGPORT, PGUSER, PGDATABASE, ...).
func Connect(conninfo string) (*Conn, error) {
	cs := C.CString(conninfo)
	defer C.free(unsafe.Pointer(cs))
	c := C.PQconnectdb(cs)
	if C.PQstatus(c) != C.CONNECTION_OK {
		err := errors.New(strings.TrimSpace(C.GoString(C.PQerrorMessage(c))))
		C.PQfinish(c)
		return nil, err
	}
	C.bt_set_quiet(c)
	return &Conn{c: c}, nil
}

// Close ends the connection.
func (c *Conn) Close() {
	if c.c != nil {
		C.PQfinish(c.c)
		c.c = nil
	}
}

// Rows are a result's rows; a value is nil for NULL, else its text form
// (or binary form, when asked for).
type Rows [][][]byte

// cParams holds parameters as C strings (the text form of each value: Go
// integers and strings as they print, []byte as it is; nil is NULL).
type cParams struct {
	vals **C.char
	n    int
}

func newParams(params []any) *cParams {
	p := &cParams{n: len(params)}
	if len(params) == 0 {
		return p
	}
	p.vals = (**C.char)(C.calloc(C.size_t(len(params)), C.size_t(unsafe.Sizeof(uintptr(0)))))
	arr := unsafe.Slice(p.vals, len(params))
	for i, v := range params {
		switch v := v.(type) {
		case nil:
			arr[i] = nil
		case []byte:
			arr[i] = C.CString(string(v))
		default:
			arr[i] = C.CString(fmt.Sprint(v))
		}
	}
	return p
}

func (p *cParams) free() {
	if p.vals == nil {
		return
	}
	for _, s := range unsafe.Slice(p.vals, p.n) {
		C.free(unsafe.Pointer(s))
	}
	C.free(unsafe.Pointer(p.vals))
}

// result turns a PGresult into rows or an error, and frees it.
func (c *Conn) result(r *C.PGresult) (Rows, error) {
	defer C.PQclear(r)
	switch C.PQresultStatus(r) {
	case C.PGRES_COMMAND_OK, C.PGRES_EMPTY_QUERY:
		return nil, nil
	case C.PGRES_TUPLES_OK:
	default:
		msg := C.GoString(C.PQresultErrorMessage(r))
		if msg == "" {
			msg = C.GoString(C.PQerrorMessage(c.c))
		}
		return nil, errors.New(strings.TrimSpace(msg))
	}
	nrows, ncols := int(C.PQntuples(r)), int(C.PQnfields(r))
	rows := make(Rows, nrows)
	for i := 0; i < nrows; i++ {
		rows[i] = make([][]byte, ncols)
		for j := 0; j < ncols; j++ {
			if C.PQgetisnull(r, C.int(i), C.int(j)) == 0 {
				rows[i][j] = C.GoBytes(unsafe.Pointer(C.PQgetvalue(r, C.int(i), C.int(j))),
					C.PQgetlength(r, C.int(i), C.int(j)))
			}
		}
	}
	return rows, nil
}

func format(binary bool) C.int {
	if binary {
		return 1
	}
	return 0
}

// Query runs sql with parameters $1, $2, ... given in text form; binary
// asks for the results' binary form (a bytea's raw bytes).
func (c *Conn) Query(sql string, binary bool, params ...any) (Rows, error) {
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	p := newParams(params)
	defer p.free()
	return c.result(C.PQexecParams(c.c, cs, C.int(p.n), nil, p.vals, nil, nil, format(binary)))
}

// Exec runs a statement that returns no rows of interest.
func (c *Conn) Exec(sql string, params ...any) error {
	_, err := c.Query(sql, false, params...)
	return err
}

// ExecScript runs statements separated by semicolons, as psql -f runs a
// file of SQL (the simple query protocol: no parameters); the first error
// stops it.
func (c *Conn) ExecScript(sql string) error {
	cs := C.CString(sql)
	defer C.free(unsafe.Pointer(cs))
	_, err := c.result(C.PQexec(c.c, cs))
	return err
}

// Prepare makes the prepared statement name; types are the parameters'
// type OIDs (0: let the server infer).
func (c *Conn) Prepare(name, sql string, types ...uint32) error {
	cn, cs := C.CString(name), C.CString(sql)
	defer C.free(unsafe.Pointer(cn))
	defer C.free(unsafe.Pointer(cs))
	var oids *C.Oid
	if len(types) > 0 {
		arr := make([]C.Oid, len(types))
		for i, t := range types {
			arr[i] = C.Oid(t)
		}
		oids = &arr[0]
	}
	_, err := c.result(C.PQprepare(c.c, cn, cs, C.int(len(types)), oids))
	return err
}

// QueryPrepared runs the prepared statement name.
func (c *Conn) QueryPrepared(name string, binary bool, params ...any) (Rows, error) {
	cn := C.CString(name)
	defer C.free(unsafe.Pointer(cn))
	p := newParams(params)
	defer p.free()
	return c.result(C.PQexecPrepared(c.c, cn, C.int(p.n), p.vals, nil, nil, format(binary)))
}

// WaitNotify waits up to timeout for a notification of a channel this
// connection LISTENs on: its channel, or "" when none came in time.
func (c *Conn) WaitNotify(timeout time.Duration) (string, error) {
	var ch *C.char
	switch C.bt_wait_notify(c.c, C.int(timeout.Milliseconds()), &ch) {
	case 1:
		defer C.free(unsafe.Pointer(ch))
		return C.GoString(ch), nil
	case 0:
		return "", nil
	}
	return "", errors.New(strings.TrimSpace(C.GoString(C.PQerrorMessage(c.c))))
}
