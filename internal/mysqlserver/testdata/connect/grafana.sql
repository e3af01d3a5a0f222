-- Grafana's MySQL data source. Connecting: go-sql-driver with the DSN of
-- pkg/tsdb/mysql/mysql.go (collation=utf8mb4_unicode_ci&parseTime=true&
-- loc=UTC&allowNativePasswords=true, and &time_zone='…' when the data
-- source sets a time zone, which the driver sends as SET); the health
-- check is a ping (pkg/tsdb/mysql/sqleng/handler_checkhealth.go). The
-- query editor's lists: showDatabases, buildTableQuery (with a dataset and
-- with database()) and buildColumnQuery (plain and for a 'time' column) of
-- public/app/plugins/datasource/mysql/mySqlMetaQuery.ts. A time series
-- panel: $__timeGroupAlias(event_time, 1h) and $__timeFilter(event_time)
-- as pkg/tsdb/mysql/macros.go expands them, and $__timeFrom/$__timeTo.
SET time_zone='+00:00';
SELECT DISTINCT TABLE_SCHEMA from information_schema.TABLES where TABLE_TYPE != 'SYSTEM VIEW' ORDER BY TABLE_SCHEMA;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'tutorial' ORDER BY table_name;
SELECT table_name FROM information_schema.tables WHERE table_schema = database() ORDER BY table_name;
SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'tutorial' AND table_name = 'retail_clickstream_events' ORDER BY column_name;
SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'tutorial' AND table_name = 'retail_clickstream_events' AND data_type IN ('timestamp','datetime','bigint','int','double','float') ORDER BY column_name;
SELECT UNIX_TIMESTAMP(event_time) DIV 3600 * 3600 AS "time", count(*) AS value FROM tutorial.retail_clickstream_events WHERE event_time BETWEEN FROM_UNIXTIME(1767225600) AND FROM_UNIXTIME(1767484800) GROUP BY 1 ORDER BY 1;
SELECT event_type AS metric, count(*) AS value FROM tutorial.retail_clickstream_events WHERE event_time >= FROM_UNIXTIME(1767225600) AND event_time <= FROM_UNIXTIME(1767484800) GROUP BY event_type ORDER BY event_type;
