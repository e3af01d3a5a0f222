-- Grafana's MySQL data source: go-sql-driver's session setup from the DSN
-- Grafana builds (time_zone='+00:00'), the health check, the query
-- editor's schema, table and column lists, and a time series panel query
-- with $__timeGroupAlias(event_time, 1h) and $__timeFilter(event_time)
-- expanded as Grafana expands them.
SET time_zone='+00:00';
SELECT 1;
SELECT DISTINCT TABLE_SCHEMA from information_schema.TABLES where TABLE_TYPE != 'SYSTEM VIEW' ORDER BY TABLE_SCHEMA;
SELECT table_name FROM information_schema.tables WHERE table_schema = 'tutorial' ORDER BY table_name;
SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = 'tutorial' AND table_name = 'retail_clickstream_events' ORDER BY column_name;
SELECT UNIX_TIMESTAMP(event_time) DIV 3600 * 3600 AS "time", count(*) AS value FROM tutorial.retail_clickstream_events WHERE event_time BETWEEN FROM_UNIXTIME(1767225600) AND FROM_UNIXTIME(1767398400) GROUP BY 1 ORDER BY 1;
