-- the maintained filter: the metapage and one page a layer
\set id random(1, :range)
SELECT bloom_index_contains('users_id_filter', :id::bigint);
