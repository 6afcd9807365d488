'use strict';
/*
 * The input forms of a value: its bytes (what SELECT f::bytea gives, the
 * binary form), or its text form, "\x" followed by the hex digits, as
 * the types' input function reads it (bt_type_in, src/pg/glue_io.c: no
 * spaces, an even number of digits, at most 536,869,888 bytes).
 */

const { FormatError } = require('./errors');
const { C } = require('./header');

/* Buffer, Uint8Array or ArrayBuffer, as a Uint8Array (not copied) */
function asBytes(buf) {
  if (buf instanceof Uint8Array) return buf;
  if (buf instanceof ArrayBuffer) return new Uint8Array(buf);
  throw new TypeError('a filter value is a Buffer, Uint8Array or ArrayBuffer (e.g. SELECT f::bytea)');
}

/*
 * A copy of buf[start, end) in a new Uint8Array (Buffer's own slice() is a
 * view, not a copy): a filter keeps its bits, whatever the caller does
 * with its buffer afterwards
 */
function copyOf(buf, start = 0, end = buf.length) {
  return new Uint8Array(buf.subarray(start, end));
}

const HEX = /^[0-9a-fA-F]*$/;

function parseHex(text, type) {
  if (typeof text !== 'string') throw new TypeError('the text form is a string');
  if (text.length < 2 || text[0] !== '\\' || text[1] !== 'x') {
    throw new FormatError(type, 'TEXT', 'The text form must start with "\\x".');
  }
  const digits = text.length - 2;
  if (digits % 2 !== 0) {
    throw new FormatError(type, 'TEXT', 'The hex digits after "\\x" are odd in number.');
  }
  if (digits / 2 > C.MAX_BYTES) throw new FormatError(type, 'TOOLARGE');
  const hex = text.slice(2);
  if (!HEX.test(hex)) {
    const at = hex.search(/[^0-9a-fA-F]/);
    const i = at >> 1;
    throw new FormatError(type, 'TEXT',
      `${JSON.stringify(hex.slice(2 * i, 2 * i + 2))} at byte ${i} is not a hexadecimal byte.`);
  }
  return Buffer.from(hex, 'hex');
}

module.exports = { asBytes, parseHex, copyOf };
