-- 0003: mark the file as an mmcmp database: PRAGMA application_id
-- 0x6d6d6370 ("mmcp"), so that mmcmp tells its databases from another
-- application's SQLite file, which it refuses to touch. Databases of
-- 0001 and 0002 have none; the store knows them by their tables.

PRAGMA application_id = 1835885424;
