-- one registration, one transaction (ins_base; bench/am.sh derives ins_bf, ins_bt)
INSERT INTO ins_base (id, email) SELECT n, 'user' || n || '@example.com' FROM nextval('new_ids') n;
