/*
 * int.c -- built-in int functions (placeholder: the tables are filled in
 * by the type-system work of issue 5/6).
 */
#include "common/base.h"

#include "types/builtins.h"

const BuiltinSet tdb_builtins_int = {"int", NULL, 0, NULL, 0, NULL, 0,
                                   NULL, 0, NULL, 0};
