-- Metabase's MySQL driver (MariaDB Connector/J 3) when it connects, checks
-- the connection, syncs the schema and runs a question: the driver's
-- session setup, Metabase's can-connect probe, its describe-database and
-- describe-table queries over information_schema, and the SQL its query
-- processor generates for "count of events by type" and a day bucketing.
set autocommit=1, session_track_schema=1, sql_mode = concat(@@sql_mode,',STRICT_TRANS_TABLES');
SELECT @@max_allowed_packet, @@wait_timeout;
SELECT 1;
SELECT `TABLE_NAME` AS `name`, `TABLE_SCHEMA` AS `schema`, `TABLE_COMMENT` AS `description` FROM `information_schema`.`TABLES` WHERE `TABLE_SCHEMA` = 'tutorial' AND `TABLE_TYPE` IN ('BASE TABLE', 'VIEW');
SELECT `COLUMN_NAME`, `DATA_TYPE`, `COLUMN_TYPE`, `ORDINAL_POSITION`, `IS_NULLABLE`, `COLUMN_COMMENT` FROM `information_schema`.`COLUMNS` WHERE `TABLE_SCHEMA` = 'tutorial' AND `TABLE_NAME` = 'retail_clickstream_events' ORDER BY `ORDINAL_POSITION` ASC;
SELECT `tutorial`.`retail_clickstream_events`.`event_type` AS `event_type`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY `tutorial`.`retail_clickstream_events`.`event_type` ORDER BY `tutorial`.`retail_clickstream_events`.`event_type` ASC LIMIT 1048575;
SELECT str_to_date(date_format(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m-%d'), '%Y-%m-%d') AS `event_time`, COUNT(*) AS `count` FROM `tutorial`.`retail_clickstream_events` GROUP BY str_to_date(date_format(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m-%d'), '%Y-%m-%d') ORDER BY str_to_date(date_format(`tutorial`.`retail_clickstream_events`.`event_time`, '%Y-%m-%d'), '%Y-%m-%d') ASC LIMIT 2000;
