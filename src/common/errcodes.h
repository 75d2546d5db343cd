/*
 * errcodes.h -- SQLSTATE codes, packed as PostgreSQL packs them: five
 * characters, six bits each ((c - '0') & 0x3F), first character lowest.
 * Only the codes tupledb raises are listed; add them here as they are used.
 */
#ifndef TDB_COMMON_ERRCODES_H
#define TDB_COMMON_ERRCODES_H

#define PGSIXBIT(ch) (((ch) - '0') & 0x3F)
#define MAKE_SQLSTATE(c1, c2, c3, c4, c5)                                   \
    (PGSIXBIT(c1) + (PGSIXBIT(c2) << 6) + (PGSIXBIT(c3) << 12) +            \
     (PGSIXBIT(c4) << 18) + (PGSIXBIT(c5) << 24))

#define ERRCODE_SUCCESSFUL_COMPLETION MAKE_SQLSTATE('0', '0', '0', '0', '0')
#define ERRCODE_WARNING MAKE_SQLSTATE('0', '1', '0', '0', '0')
#define ERRCODE_FEATURE_NOT_SUPPORTED MAKE_SQLSTATE('0', 'A', '0', '0', '0')
#define ERRCODE_DATA_CORRUPTED MAKE_SQLSTATE('X', 'X', '0', '0', '1')
#define ERRCODE_INTERNAL_ERROR MAKE_SQLSTATE('X', 'X', '0', '0', '0')
#define ERRCODE_INDEX_CORRUPTED MAKE_SQLSTATE('X', 'X', '0', '0', '2')
#define ERRCODE_OUT_OF_MEMORY MAKE_SQLSTATE('5', '3', '2', '0', '0')
#define ERRCODE_PROGRAM_LIMIT_EXCEEDED MAKE_SQLSTATE('5', '4', '0', '0', '0')
#define ERRCODE_STATEMENT_TOO_COMPLEX MAKE_SQLSTATE('5', '4', '0', '0', '1')
#define ERRCODE_INVALID_PARAMETER_VALUE MAKE_SQLSTATE('2', '2', '0', '2', '3')
#define ERRCODE_QUERY_CANCELED MAKE_SQLSTATE('5', '7', '0', '1', '4')

/* Data exceptions (types/): input syntax, ranges, strings. */
#define ERRCODE_STRING_DATA_RIGHT_TRUNCATION                                \
    MAKE_SQLSTATE('2', '2', '0', '0', '1')
#define ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE                                  \
    MAKE_SQLSTATE('2', '2', '0', '0', '3')
#define ERRCODE_SUBSTRING_ERROR MAKE_SQLSTATE('2', '2', '0', '1', '1')
#define ERRCODE_INVALID_REGULAR_EXPRESSION                                  \
    MAKE_SQLSTATE('2', '2', '0', '1', 'B')
#define ERRCODE_ARRAY_SUBSCRIPT_ERROR MAKE_SQLSTATE('2', '2', '0', '2', 'E')
#define ERRCODE_INVALID_USE_OF_ESCAPE_CHARACTER                             \
    MAKE_SQLSTATE('2', '2', '0', '0', 'C')
#define ERRCODE_DIVISION_BY_ZERO MAKE_SQLSTATE('2', '2', '0', '1', '2')
#define ERRCODE_CHARACTER_NOT_IN_REPERTOIRE                                 \
    MAKE_SQLSTATE('2', '2', '0', '2', '1')
#define ERRCODE_INVALID_ESCAPE_SEQUENCE MAKE_SQLSTATE('2', '2', '0', '2', '5')
#define ERRCODE_UNTRANSLATABLE_CHARACTER MAKE_SQLSTATE('2', '2', 'P', '0', '5')
#define ERRCODE_INVALID_ARGUMENT_FOR_LOG MAKE_SQLSTATE('2', '2', '0', '1', 'E')
#define ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION                         \
    MAKE_SQLSTATE('2', '2', '0', '1', 'F')
#define ERRCODE_INVALID_TEXT_REPRESENTATION                                 \
    MAKE_SQLSTATE('2', '2', 'P', '0', '2')

/* Date/time data exceptions (types/date.c, timestamp.c, interval.c). */
#define ERRCODE_INVALID_DATETIME_FORMAT MAKE_SQLSTATE('2', '2', '0', '0', '7')
#define ERRCODE_DATETIME_FIELD_OVERFLOW MAKE_SQLSTATE('2', '2', '0', '0', '8')
#define ERRCODE_INVALID_BINARY_REPRESENTATION MAKE_SQLSTATE('2', '2', 'P', '0', '3')
#define ERRCODE_DATETIME_VALUE_OUT_OF_RANGE                                 \
    MAKE_SQLSTATE('2', '2', '0', '0', '8')
#define ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE                        \
    MAKE_SQLSTATE('2', '2', '0', '0', '9')
#define ERRCODE_INTERVAL_FIELD_OVERFLOW MAKE_SQLSTATE('2', '2', '0', '1', '5')
#define ERRCODE_CONFIG_FILE_ERROR MAKE_SQLSTATE('F', '0', '0', '0', '0')

/* Transactions (access/). */
#define ERRCODE_IN_FAILED_SQL_TRANSACTION                                   \
    MAKE_SQLSTATE('2', '5', 'P', '0', '2')
#define ERRCODE_T_R_SERIALIZATION_FAILURE MAKE_SQLSTATE('4', '0', '0', '0', '1')
#define ERRCODE_T_R_DEADLOCK_DETECTED MAKE_SQLSTATE('4', '0', 'P', '0', '1')

/* SQL statements (sql/, executor/, types/). */
#define ERRCODE_SYNTAX_ERROR MAKE_SQLSTATE('4', '2', '6', '0', '1')
#define ERRCODE_UNDEFINED_COLUMN MAKE_SQLSTATE('4', '2', '7', '0', '3')
#define ERRCODE_AMBIGUOUS_COLUMN MAKE_SQLSTATE('4', '2', '7', '0', '2')
#define ERRCODE_UNDEFINED_FUNCTION MAKE_SQLSTATE('4', '2', '8', '8', '3')
#define ERRCODE_AMBIGUOUS_FUNCTION MAKE_SQLSTATE('4', '2', '7', '2', '5')
#define ERRCODE_GROUPING_ERROR MAKE_SQLSTATE('4', '2', '8', '0', '3')
#define ERRCODE_DATATYPE_MISMATCH MAKE_SQLSTATE('4', '2', '8', '0', '4')
#define ERRCODE_CANNOT_COERCE MAKE_SQLSTATE('4', '2', '8', '4', '6')
#define ERRCODE_AMBIGUOUS_PARAMETER MAKE_SQLSTATE('4', '2', 'P', '0', '8')
#define ERRCODE_INDETERMINATE_DATATYPE MAKE_SQLSTATE('4', '2', 'P', '1', '8')
#define ERRCODE_INVALID_COLUMN_REFERENCE MAKE_SQLSTATE('4', '2', 'P', '1', '0')
#define ERRCODE_DUPLICATE_ALIAS MAKE_SQLSTATE('4', '2', '7', '1', '2')
#define ERRCODE_UNDEFINED_PARAMETER MAKE_SQLSTATE('4', '2', 'P', '0', '2')
#define ERRCODE_WINDOWING_ERROR MAKE_SQLSTATE('4', '2', 'P', '2', '0')
#define ERRCODE_INVALID_RECURSION MAKE_SQLSTATE('4', '2', 'P', '1', '9')
#define ERRCODE_CARDINALITY_VIOLATION MAKE_SQLSTATE('2', '1', '0', '0', '0')
#define ERRCODE_ACTIVE_SQL_TRANSACTION MAKE_SQLSTATE('2', '5', '0', '0', '1')
#define ERRCODE_NO_ACTIVE_SQL_TRANSACTION MAKE_SQLSTATE('2', '5', 'P', '0', '1')
#define ERRCODE_CHECK_VIOLATION MAKE_SQLSTATE('2', '3', '5', '1', '4')
#define ERRCODE_INVALID_TEXT_REPRESENTATION MAKE_SQLSTATE('2', '2', 'P', '0', '2')
#define ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE MAKE_SQLSTATE('2', '2', '0', '0', '3')
#define ERRCODE_DIVISION_BY_ZERO MAKE_SQLSTATE('2', '2', '0', '1', '2')
#define ERRCODE_STRING_DATA_RIGHT_TRUNCATION                                 \
    MAKE_SQLSTATE('2', '2', '0', '0', '1')
#define ERRCODE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE                            \
    MAKE_SQLSTATE('2', '2', '0', '1', 'W')
#define ERRCODE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE                    \
    MAKE_SQLSTATE('2', '2', '0', '1', 'X')

/* Objects and definitions (catalog/). */
#define ERRCODE_UNDEFINED_TABLE MAKE_SQLSTATE('4', '2', 'P', '0', '1')
#define ERRCODE_UNDEFINED_OBJECT MAKE_SQLSTATE('4', '2', '7', '0', '4')
#define ERRCODE_UNDEFINED_SCHEMA MAKE_SQLSTATE('3', 'F', '0', '0', '0')
#define ERRCODE_DUPLICATE_TABLE MAKE_SQLSTATE('4', '2', 'P', '0', '7')
#define ERRCODE_DUPLICATE_OBJECT MAKE_SQLSTATE('4', '2', '7', '1', '0')
#define ERRCODE_DUPLICATE_COLUMN MAKE_SQLSTATE('4', '2', '7', '0', '1')
#define ERRCODE_INVALID_TABLE_DEFINITION MAKE_SQLSTATE('4', '2', 'P', '1', '6')
#define ERRCODE_INVALID_OBJECT_DEFINITION MAKE_SQLSTATE('4', '2', 'P', '1', '7')
#define ERRCODE_NAME_TOO_LONG MAKE_SQLSTATE('4', '2', '6', '2', '2')
#define ERRCODE_TOO_MANY_COLUMNS MAKE_SQLSTATE('5', '4', '0', '1', '1')
#define ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST                                \
    MAKE_SQLSTATE('2', 'B', 'P', '0', '1')
#define ERRCODE_OBJECT_IN_USE MAKE_SQLSTATE('5', '5', '0', '0', '6')
#define ERRCODE_RESERVED_NAME MAKE_SQLSTATE('4', '2', '9', '3', '9')

/* Authentication (server/). */
#define ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION                          \
    MAKE_SQLSTATE('2', '8', '0', '0', '0')
#define ERRCODE_INVALID_PASSWORD MAKE_SQLSTATE('2', '8', 'P', '0', '1')
#define ERRCODE_NOT_NULL_VIOLATION MAKE_SQLSTATE('2', '3', '5', '0', '2')
#define ERRCODE_UNIQUE_VIOLATION MAKE_SQLSTATE('2', '3', '5', '0', '5')

/* File access (storage/): see tdb_fd_errcode() for the errno mapping. */
#define ERRCODE_INSUFFICIENT_PRIVILEGE MAKE_SQLSTATE('4', '2', '5', '0', '1')
#define ERRCODE_WRONG_OBJECT_TYPE MAKE_SQLSTATE('4', '2', '8', '0', '9')
#define ERRCODE_INSUFFICIENT_RESOURCES MAKE_SQLSTATE('5', '3', '0', '0', '0')
#define ERRCODE_DISK_FULL MAKE_SQLSTATE('5', '3', '1', '0', '0')
#define ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE                            \
    MAKE_SQLSTATE('5', '5', '0', '0', '0')
#define ERRCODE_LOCK_NOT_AVAILABLE MAKE_SQLSTATE('5', '5', 'P', '0', '3')
#define ERRCODE_IO_ERROR MAKE_SQLSTATE('5', '8', '0', '3', '0')
#define ERRCODE_UNDEFINED_FILE MAKE_SQLSTATE('5', '8', 'P', '0', '1')
#define ERRCODE_DUPLICATE_FILE MAKE_SQLSTATE('5', '8', 'P', '0', '2')

/* COPY (sql/copy*.c). */
#define ERRCODE_BAD_COPY_FILE_FORMAT MAKE_SQLSTATE('2', '2', 'P', '0', '4')
#define ERRCODE_INVALID_NAME MAKE_SQLSTATE('4', '2', '6', '0', '2')
#define ERRCODE_CONNECTION_FAILURE MAKE_SQLSTATE('0', '8', '0', '0', '6')
#define ERRCODE_PROTOCOL_VIOLATION MAKE_SQLSTATE('0', '8', 'P', '0', '1')

#endif /* TDB_COMMON_ERRCODES_H */
