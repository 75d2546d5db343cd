/*
 * dlist.h -- intrusive circular doubly-linked lists with a head sentinel.
 *
 * Embed a dlist_node in a struct, keep a dlist_head somewhere, and get
 * from a node back to its struct with dlist_container().  All operations
 * are O(1) and never allocate.  An initialised empty head points at
 * itself; dlist_init() must run before first use.
 */
#ifndef TDB_COMMON_DLIST_H
#define TDB_COMMON_DLIST_H

#include "common/base.h"

typedef struct dlist_node {
    struct dlist_node *prev;
    struct dlist_node *next;
} dlist_node;

typedef struct dlist_head {
    dlist_node head; /* sentinel: head.next is the first element */
} dlist_head;

#define dlist_container(type, field, node_ptr)                              \
    ((type *)((char *)(node_ptr) - offsetof(type, field)))

static inline void
dlist_init(dlist_head *list)
{
    list->head.next = list->head.prev = &list->head;
}

static inline bool
dlist_is_empty(const dlist_head *list)
{
    return list->head.next == &list->head;
}

static inline void
dlist_push_head(dlist_head *list, dlist_node *node)
{
    node->next = list->head.next;
    node->prev = &list->head;
    node->next->prev = node;
    list->head.next = node;
}

static inline void
dlist_push_tail(dlist_head *list, dlist_node *node)
{
    node->next = &list->head;
    node->prev = list->head.prev;
    node->prev->next = node;
    list->head.prev = node;
}

static inline void
dlist_delete(dlist_node *node)
{
    node->prev->next = node->next;
    node->next->prev = node->prev;
}

/* First element, or NULL if the list is empty. */
static inline dlist_node *
dlist_first(const dlist_head *list)
{
    return dlist_is_empty(list) ? NULL : list->head.next;
}

/* Element after node, or NULL at the end. */
static inline dlist_node *
dlist_next(const dlist_head *list, const dlist_node *node)
{
    return node->next == &list->head ? NULL : node->next;
}

/*
 * Iterate, allowing the current node to be deleted:
 *     dlist_foreach_modify(it, &list) { ... it.cur ... }
 */
typedef struct dlist_mutable_iter {
    dlist_node *cur;
    dlist_node *next;
    dlist_node *end;
} dlist_mutable_iter;

#define dlist_foreach_modify(iter, lhead)                                   \
    for ((iter).end = &(lhead)->head, (iter).cur = (iter).end->next,        \
        (iter).next = (iter).cur->next;                                     \
         (iter).cur != (iter).end;                                          \
         (iter).cur = (iter).next, (iter).next = (iter).cur->next)

#endif /* TDB_COMMON_DLIST_H */
