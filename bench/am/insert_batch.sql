-- 100 registrations in one statement (ins_base; bench/am.sh derives ins_bf, ins_bt)
INSERT INTO ins_base (id, email)
  SELECT n, 'user' || n || '@example.com' FROM (SELECT nextval('new_ids') AS n FROM generate_series(1, 100)) s;
