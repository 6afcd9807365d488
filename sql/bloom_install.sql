-- The generated install script (bloomtype--1.8.sql) makes the catalog that
-- CREATE EXTENSION bloomtype VERSION '1.0' and ALTER EXTENSION bloomtype
-- UPDATE TO '1.8' make: the same objects with the same properties, the
-- same comments.  Each way's catalog is described as text, without OIDs,
-- and the two descriptions must not differ.
SET client_min_messages = warning;
DROP EXTENSION IF EXISTS bloomtype CASCADE;
RESET client_min_messages;

-- One row per property list: (kind, object, properties).  Objects are
-- those of the extension and what hangs off them: the array type, the
-- members of its operator families, the pg_aggregate rows, comments.
CREATE TEMP VIEW ext_catalog AS
WITH ext AS (SELECT oid FROM pg_extension WHERE extname = 'bloomtype'),
member AS (
  SELECT d.classid, d.objid FROM pg_depend d, ext
   WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'),
proc AS (SELECT p.* FROM pg_proc p JOIN member m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid)
-- every member, with its comment
SELECT 'member' AS kind, pg_describe_object(m.classid, m.objid, 0) AS object,
       coalesce(c.description, '(no comment)') AS properties
  FROM member m LEFT JOIN pg_description c
    ON c.classoid = m.classid AND c.objoid = m.objid AND c.objsubid = 0
UNION ALL
SELECT 'function', p.oid::regprocedure::text,
       format('args(%s) identity(%s) result(%s) kind=%s src=%s bin=%s lang=%s vol=%s strict=%s par=%s '
              'secdef=%s leakproof=%s retset=%s cost=%s rows=%s variadic=%s support=%s '
              'nargs=%s nargdefaults=%s argnames=%s argmodes=%s alltypes=%s config=%s acl=%s',
              pg_get_function_arguments(p.oid), pg_get_function_identity_arguments(p.oid),
              pg_get_function_result(p.oid), p.prokind, p.prosrc, p.probin, l.lanname,
              p.provolatile, p.proisstrict, p.proparallel, p.prosecdef, p.proleakproof,
              p.proretset, p.procost, p.prorows, p.provariadic::regtype, p.prosupport,
              p.pronargs, p.pronargdefaults, p.proargnames, p.proargmodes,
              p.proallargtypes::regtype[], p.proconfig, p.proacl)
  FROM proc p JOIN pg_language l ON l.oid = p.prolang
UNION ALL
SELECT 'aggregate', a.aggfnoid::regprocedure::text,
       format('kind=%s direct=%s trans=%s final=%s combine=%s serial=%s deserial=%s '
              'mtrans=%s minv=%s mfinal=%s finalextra=%s mfinalextra=%s finalmodify=%s '
              'mfinalmodify=%s sortop=%s stype=%s space=%s mstype=%s mspace=%s init=%s minit=%s',
              a.aggkind, a.aggnumdirectargs, a.aggtransfn::regprocedure, a.aggfinalfn::regprocedure,
              a.aggcombinefn::regprocedure, a.aggserialfn::regprocedure, a.aggdeserialfn::regprocedure,
              a.aggmtransfn::regprocedure, a.aggminvtransfn::regprocedure, a.aggmfinalfn::regprocedure,
              a.aggfinalextra, a.aggmfinalextra, a.aggfinalmodify, a.aggmfinalmodify,
              a.aggsortop::regoperator, a.aggtranstype::regtype, a.aggtransspace,
              a.aggmtranstype::regtype, a.aggmtransspace, a.agginitval, a.aggminitval)
  FROM pg_aggregate a JOIN proc p ON p.oid = a.aggfnoid
UNION ALL
SELECT 'operator', o.oid::regoperator::text,
       format('kind=%s code=%s result=%s commutator=%s negator=%s restrict=%s join=%s hashes=%s merges=%s',
              o.oprkind, o.oprcode::regprocedure, o.oprresult::regtype, o.oprcom::regoperator,
              o.oprnegate::regoperator, o.oprrest, o.oprjoin, o.oprcanhash, o.oprcanmerge)
  FROM pg_operator o JOIN member m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
UNION ALL
SELECT 'type', t.typname::text,
       format('len=%s byval=%s type=%s category=%s preferred=%s defined=%s delim=%s relid=%s '
              'subscript=%s elem=%s array=%s in=%s out=%s recv=%s send=%s modin=%s modout=%s '
              'analyze=%s align=%s storage=%s notnull=%s basetype=%s typmod=%s ndims=%s '
              'collation=%s default=%s acl=%s',
              t.typlen, t.typbyval, t.typtype, t.typcategory, t.typispreferred, t.typisdefined,
              t.typdelim, t.typrelid::regclass, t.typsubscript, t.typelem::regtype, t.typarray::regtype,
              t.typinput, t.typoutput, t.typreceive, t.typsend, t.typmodin, t.typmodout,
              t.typanalyze, t.typalign, t.typstorage, t.typnotnull, t.typbasetype::regtype,
              t.typtypmod, t.typndims, t.typcollation, t.typdefault, t.typacl)
  FROM pg_type t JOIN member m ON m.classid = 'pg_type'::regclass
   AND (t.oid = m.objid OR t.typelem = m.objid AND t.oid = (SELECT typarray FROM pg_type WHERE oid = m.objid))
UNION ALL
SELECT 'cast', format('%s AS %s', c.castsource::regtype, c.casttarget::regtype),
       format('func=%s context=%s method=%s', c.castfunc::regprocedure, c.castcontext, c.castmethod)
  FROM pg_cast c JOIN member m ON m.classid = 'pg_cast'::regclass AND m.objid = c.oid
UNION ALL
SELECT 'opclass', format('%s USING %s', oc.opcname, am.amname),
       format('family=%s type=%s default=%s key=%s', f.opfname, oc.opcintype::regtype,
              oc.opcdefault, oc.opckeytype::regtype)
  FROM pg_opclass oc JOIN member m ON m.classid = 'pg_opclass'::regclass AND m.objid = oc.oid
  JOIN pg_am am ON am.oid = oc.opcmethod JOIN pg_opfamily f ON f.oid = oc.opcfamily
UNION ALL
SELECT 'opfamily member', format('%s USING %s: operator %s', f.opfname, am.amname, ao.amopstrategy),
       format('%s types=(%s, %s) purpose=%s sortfamily=%s', ao.amopopr::regoperator,
              ao.amoplefttype::regtype, ao.amoprighttype::regtype, ao.amoppurpose, ao.amopsortfamily)
  FROM pg_amop ao JOIN pg_opfamily f ON f.oid = ao.amopfamily JOIN pg_am am ON am.oid = f.opfmethod
  JOIN member m ON m.classid = 'pg_opfamily'::regclass AND m.objid = f.oid
UNION ALL
SELECT 'opfamily member', format('%s USING %s: function %s', f.opfname, am.amname, ap.amprocnum),
       format('%s types=(%s, %s)', ap.amproc::regprocedure,
              ap.amproclefttype::regtype, ap.amprocrighttype::regtype)
  FROM pg_amproc ap JOIN pg_opfamily f ON f.oid = ap.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
  JOIN member m ON m.classid = 'pg_opfamily'::regclass AND m.objid = f.oid
UNION ALL
-- how the members depend on each other (aggregates on their support
-- functions, opclasses on their families, ...)
SELECT 'dependency', pg_describe_object(d.classid, d.objid, d.objsubid),
       format('%s on %s', d.deptype, pg_describe_object(d.refclassid, d.refobjid, d.refobjsubid))
  FROM pg_depend d JOIN member m ON m.classid = d.classid AND m.objid = d.objid
 WHERE d.refclassid <> 'pg_extension'::regclass
   AND d.refobjid >= 16384  -- not on built-in objects, which every member of a schema has
UNION ALL
SELECT 'access method', a.amname::text,
       format('type=%s handler=%s', a.amtype, a.amhandler::regprocedure)
  FROM pg_am a JOIN member m ON m.classid = 'pg_am'::regclass AND m.objid = a.oid
UNION ALL
SELECT 'table', c.relname::text,
       format('kind=%s persistence=%s owner_is_superuser=%s public_rights=%s columns=%s indexes=%s',
              c.relkind, c.relpersistence, r.rolsuper,
              (SELECT count(*) FROM aclexplode(c.relacl) x WHERE x.grantee = 0),
              (SELECT string_agg(format('%s %s %s notnull=%s default=%s', a.attname,
                                        format_type(a.atttypid, a.atttypmod), a.attstorage,
                                        a.attnotnull, pg_get_expr(d.adbin, d.adrelid)), ', ' ORDER BY a.attnum)
                 FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
                WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped),
              (SELECT string_agg(regexp_replace(pg_get_indexdef(i.indexrelid), ' ON \S+', ' ON t'), '; '
                                 ORDER BY pg_get_indexdef(i.indexrelid))
                 FROM pg_index i WHERE i.indrelid = c.oid))
  FROM pg_class c JOIN member m ON m.classid = 'pg_class'::regclass AND m.objid = c.oid
  JOIN pg_roles r ON r.oid = c.relowner
UNION ALL
SELECT 'extension', e.extname::text,
       format('version=%s relocatable=%s schema=%s config=%s condition=%s',
              e.extversion, e.extrelocatable, e.extnamespace::regnamespace, e.extconfig, e.extcondition)
  FROM pg_extension e JOIN ext ON ext.oid = e.oid;

-- a fresh install: the generated script, which is installed (else a
-- fresh install would run the 1.0 and upgrade scripts too)
SELECT split_part(pg_read_file(setting || '/extension/bloomtype--1.8.sql'), E'\n', 1)
       LIKE '-- Generated by scripts/gen_sql.pl %' AS generated_script_installed
  FROM pg_config WHERE name = 'SHAREDIR';
CREATE EXTENSION bloomtype;
SELECT extversion FROM pg_extension WHERE extname = 'bloomtype';
CREATE TEMP TABLE fresh AS SELECT * FROM ext_catalog;
DROP EXTENSION bloomtype;

-- the frozen 1.0 script and the upgrade scripts
CREATE EXTENSION bloomtype VERSION '1.0';
ALTER EXTENSION bloomtype UPDATE TO '1.8';
CREATE TEMP TABLE upgraded AS SELECT * FROM ext_catalog;

-- enough rows of each kind that neither description can be empty
SELECT kind, f.n AS fresh, u.n AS upgraded
  FROM (SELECT kind, count(*) AS n FROM fresh GROUP BY kind) f
  FULL JOIN (SELECT kind, count(*) AS n FROM upgraded GROUP BY kind) u USING (kind)
 ORDER BY kind;
-- the types among them: PostgreSQL 18 makes the array types of an
-- extension's types members of the extension too (three more members and
-- their dependencies; the catalog above lists an array type with its
-- element type, and now also as a member: three more type rows).
-- expected/bloom_install_1.out is 18's output; 15 leaves them out.
SELECT kind, object FROM fresh
 WHERE kind = 'type' OR (kind = 'member' AND object LIKE 'type %')
 ORDER BY kind, object;
-- both ways the same: no rows
(SELECT 'only fresh' AS way, * FROM fresh EXCEPT SELECT 'only fresh', * FROM upgraded)
UNION ALL
(SELECT 'only upgraded', * FROM upgraded EXCEPT SELECT 'only upgraded', * FROM fresh)
ORDER BY kind, object, way, properties;
-- a sample of what is compared
\x on
SELECT kind, object, properties FROM fresh
 WHERE (kind, object) IN (('type', 'bloomfilter'), ('function', 'bloom_add(bloomfilter,bigint)'),
                          ('function', 'bloom_contains(bloomfilter,bigint)'),
                          ('function', 'bloom_contains_each(bloomfilter,anyarray)'),
                          ('function', 'bloom_cardinality(bloomfilter)'),
                          ('aggregate', 'bloom_agg(anyelement,bigint,double precision)'),
                          ('member', 'function bloom_empty(bigint,double precision)'),
                          ('access method', 'bloomfilter'),
                          ('opclass', 'bloomfilter_int4_ops USING bloomfilter'),
                          ('table', 'bloomtype_index_log'))
 ORDER BY kind, object;
\x off

-- leave the extension installed as the other suites expect it: fresh
DROP VIEW ext_catalog;
DROP EXTENSION bloomtype;
CREATE EXTENSION bloomtype;
