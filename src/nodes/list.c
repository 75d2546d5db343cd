/*
 * list.c -- pointer/integer lists and node allocation (nodes.h).
 */
#include "common/base.h"

#include <string.h>

#include "nodes/nodes.h"

void *
tdb_new_node(Size size, NodeTag tag)
{
    Node *node = tdb_palloc0(size);

    node->type = tag;
    return node;
}

static List *
list_new(int min_size)
{
    List *l = tdb_palloc(sizeof(List));

    l->type = T_List;
    l->length = 0;
    l->max_length = Max(min_size, 4);
    l->elements = tdb_palloc(sizeof(ListCell) * (Size)l->max_length);
    return l;
}

static List *
list_reserve(List *l, int extra)
{
    if (l == NULL)
        return list_new(extra);
    if (l->length + extra > l->max_length) {
        int size = l->max_length;

        while (l->length + extra > size)
            size *= 2;
        l->elements = tdb_repalloc(l->elements, sizeof(ListCell) * (Size)size);
        l->max_length = size;
    }
    return l;
}

List *
tdb_lappend(List *list, void *datum)
{
    list = list_reserve(list, 1);
    list->elements[list->length++].ptr = datum;
    return list;
}

List *
tdb_lappend_int(List *list, int datum)
{
    list = list_reserve(list, 1);
    list->elements[list->length++].ival = datum;
    return list;
}

List *
tdb_lprepend(List *list, void *datum)
{
    list = list_reserve(list, 1);
    memmove(&list->elements[1], &list->elements[0],
            sizeof(ListCell) * (Size)list->length);
    list->elements[0].ptr = datum;
    list->length++;
    return list;
}

List *
tdb_list_make1(void *datum)
{
    return tdb_lappend(NIL, datum);
}

List *
tdb_list_make2(void *a, void *b)
{
    return tdb_lappend(tdb_lappend(NIL, a), b);
}

List *
tdb_list_concat(List *a, const List *b)
{
    int n = list_length(b);

    if (n == 0)
        return a;
    a = list_reserve(a, n);
    memcpy(&a->elements[a->length], b->elements, sizeof(ListCell) * (Size)n);
    a->length += n;
    return a;
}

List *
tdb_list_copy(const List *list)
{
    return tdb_list_concat(NIL, list);
}

bool
tdb_list_member_ptr(const List *list, const void *datum)
{
    for (int i = 0; i < list_length(list); i++)
        if (list->elements[i].ptr == datum)
            return true;
    return false;
}

bool
tdb_list_member_int(const List *list, int datum)
{
    for (int i = 0; i < list_length(list); i++)
        if (list->elements[i].ival == datum)
            return true;
    return false;
}

List *
tdb_list_delete_nth(List *list, int n)
{
    Assert(n >= 0 && n < list_length(list));
    memmove(&list->elements[n], &list->elements[n + 1],
            sizeof(ListCell) * (Size)(list->length - n - 1));
    list->length--;
    return list->length == 0 ? NIL : list;
}
