/*
 * pbtree.c -- libpg_query's protobuf-c trees without recursion: decoding
 * the parser's bytes into structs, and deep copies (parse_int.h).
 *
 * A parse tree is as deep as the statement is nested: `SELECT 1+1+...+1`
 * with 10,000 terms gives 20,000 levels of messages.  protobuf-c's
 * generic unpack recurses once per level with a frame of about 1 kB, so
 * such a statement needs 20 MB of stack before analysis sees it (it used
 * to take the server down).  These walk the tree with an explicit stack
 * of frames in the target memory context instead: any depth costs heap,
 * in proportion to the tree, and the analyzer's own recursion then meets
 * the max_stack_depth check (common/stack_depth.h).
 *
 * The result is the struct protobuf-c's unpack makes, field for field,
 * from the same descriptors: messages initialized by their generated
 * init functions (defaults, "" for strings), repeated fields as arrays
 * with their counts, the active member of a oneof recorded in its case
 * field, strings NUL-terminated.  Differences that cannot matter for the
 * parser's bytes: unknown fields are skipped, not kept, and a second
 * occurrence of a non-repeated message field replaces the first rather
 * than being merged into it.
 *
 * Decoding a message takes two passes over its bytes: the first counts
 * the elements of each repeated field (into the field's count, reset
 * after the arrays are allocated), the second fills the fields.  A
 * nested message met in the second pass gets its own frame, and its
 * parent's pass resumes where it stopped once the child is done.
 */
#include "common/base.h"

#include <string.h>

#include "parser/parse_int.h"

/* one message being decoded: its bytes not yet read are [p, end) */
typedef struct DecodeFrame {
    ProtobufCMessage *msg;
    const uint8_t *p;
    const uint8_t *end;
} DecodeFrame;

/* The explicit stack of a walk (decode or copy); frames of frame_size. */
typedef struct WalkStack {
    MemoryContext cxt;
    char *frames;
    Size frame_size;
    int depth; /* frames in use */
    int capacity;
    int max_depth;
} WalkStack;

#define STACK_INITIAL 64

/* NULL when out of memory: the walks never raise (parser.c frees the
 * parser's buffer before it reports) */
static void *
walk_alloc(MemoryContext cxt, Size size)
{
    return tdb_mcxt_alloc_extended(cxt, size > 0 ? size : 1,
                                   MCXT_ALLOC_NO_OOM | MCXT_ALLOC_HUGE);
}

/* A new frame on top of ws (NULL when out of memory). */
static void *
walk_push(WalkStack *ws)
{
    if (ws->depth == ws->capacity) {
        int capacity = ws->capacity * 2;
        char *frames = walk_alloc(ws->cxt, ws->frame_size * (Size)capacity);

        if (frames == NULL)
            return NULL;
        memcpy(frames, ws->frames, ws->frame_size * (Size)ws->depth);
        ws->frames = frames; /* the old array goes with the context */
        ws->capacity = capacity;
    }
    ws->depth++;
    ws->max_depth = Max(ws->max_depth, ws->depth);
    return ws->frames + ws->frame_size * (Size)(ws->depth - 1);
}

static void *
walk_top(WalkStack *ws)
{
    return ws->frames + ws->frame_size * (Size)(ws->depth - 1);
}

/* A message of type desc in cxt, as its init function leaves it. */
static ProtobufCMessage *
new_message(MemoryContext cxt, const ProtobufCMessageDescriptor *desc)
{
    ProtobufCMessage *msg = walk_alloc(cxt, desc->sizeof_message);

    if (msg == NULL)
        return NULL;
    if (desc->message_init != NULL)
        desc->message_init(msg);
    else {
        memset(msg, 0, desc->sizeof_message);
        msg->descriptor = desc;
    }
    return msg;
}

/* The size of one element of a repeated field of type t. */
static Size
element_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_SINT64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return 8;
    case PROTOBUF_C_TYPE_BOOL:
        return sizeof(protobuf_c_boolean);
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_MESSAGE:
        return sizeof(void *);
    case PROTOBUF_C_TYPE_BYTES:
        return sizeof(ProtobufCBinaryData);
    default:
        return 4; /* int32, sint32, sfixed32, uint32, fixed32, float, enum */
    }
}

#define FIELD_PTR(msg, offset) ((char *)(msg) + (offset))
#define COUNT(msg, f) (*(size_t *)FIELD_PTR(msg, (f)->quantifier_offset))

/* ----------------------------------------------------------------------
 * Decoding
 * ---------------------------------------------------------------------- */

/* Read a varint at *p (before end) into *v; false if malformed. */
static inline bool
read_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t result = 0;

    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;

        result |= (uint64_t)(b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
            *v = result;
            return true;
        }
    }
    return false;
}

/* One field's header and payload, as read by read_field. */
typedef struct WireField {
    const ProtobufCFieldDescriptor *field; /* NULL: unknown, skipped */
    int wire_type;
    uint64_t value;      /* varint and fixed-size payloads */
    const uint8_t *data; /* length-delimited payloads */
    Size len;
} WireField;

/* The descriptor of field number id of desc, or NULL. */
static const ProtobufCFieldDescriptor *
find_field(const ProtobufCMessageDescriptor *desc, uint64_t id)
{
    unsigned lo = 0, hi = desc->n_field_ranges;

    /* the parser's messages number their fields 1..n */
    if (id >= 1 && id <= desc->n_fields && desc->fields[id - 1].id == id)
        return &desc->fields[id - 1];
    /* protobuf-c's ranges: runs of consecutive ids, and a sentinel */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        const ProtobufCIntRange *r = &desc->field_ranges[mid];
        unsigned run = desc->field_ranges[mid + 1].orig_index - r->orig_index;

        if (id < (uint64_t)r->start_value)
            hi = mid;
        else if (id >= (uint64_t)r->start_value + run)
            lo = mid + 1;
        else
            return &desc->fields[r->orig_index +
                                 (id - (uint64_t)r->start_value)];
    }
    return NULL;
}

/* Read the field at *p; false if the bytes are malformed. */
static bool
read_field(const ProtobufCMessageDescriptor *desc, const uint8_t **p,
           const uint8_t *end, WireField *wf)
{
    uint64_t key, len;

    if (!read_varint(p, end, &key))
        return false;
    wf->field = find_field(desc, key >> 3);
    wf->wire_type = (int)(key & 7);
    switch (wf->wire_type) {
    case PROTOBUF_C_WIRE_TYPE_VARINT:
        return read_varint(p, end, &wf->value);
    case PROTOBUF_C_WIRE_TYPE_64BIT:
        if (end - *p < 8)
            return false;
        memcpy(&wf->value, *p, 8);
        *p += 8;
        return true;
    case PROTOBUF_C_WIRE_TYPE_32BIT: {
        uint32_t v;

        if (end - *p < 4)
            return false;
        memcpy(&v, *p, 4);
        wf->value = v;
        *p += 4;
        return true;
    }
    case PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED:
        if (!read_varint(p, end, &len) || len > (uint64_t)(end - *p))
            return false;
        wf->data = *p;
        wf->len = (Size)len;
        *p += len;
        return true;
    default:
        return false; /* groups: never in the parser's messages */
    }
}

static bool
is_packable(ProtobufCType t)
{
    return t != PROTOBUF_C_TYPE_STRING && t != PROTOBUF_C_TYPE_BYTES &&
           t != PROTOBUF_C_TYPE_MESSAGE;
}

/* Elements in a packed repeated field's payload; -1 if malformed. */
static int64
packed_count(ProtobufCType t, const uint8_t *data, Size len)
{
    Size size = element_size(t);
    int64 n = 0;

    switch (t) {
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return len % size == 0 ? (int64)(len / size) : -1;
    default:
        /* varints: one ends at each byte without the continuation bit */
        for (Size i = 0; i < len; i++)
            n += (data[i] & 0x80) == 0;
        return len > 0 && (data[len - 1] & 0x80) != 0 ? -1 : n;
    }
}

/* Store scalar value v of type t at dst. */
static void
store_scalar(ProtobufCType t, void *dst, uint64_t v)
{
    switch (t) {
    case PROTOBUF_C_TYPE_SINT32: {
        uint32_t u = (uint32_t)v;
        int32_t s = (int32_t)((u >> 1) ^ (~(u & 1) + 1));

        memcpy(dst, &s, 4);
        break;
    }
    case PROTOBUF_C_TYPE_SINT64: {
        int64_t s = (int64_t)((v >> 1) ^ (~(v & 1) + 1));

        memcpy(dst, &s, 8);
        break;
    }
    case PROTOBUF_C_TYPE_INT64:
    case PROTOBUF_C_TYPE_UINT64:
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        memcpy(dst, &v, 8);
        break;
    case PROTOBUF_C_TYPE_BOOL:
        *(protobuf_c_boolean *)dst = v != 0;
        break;
    default: {
        uint32_t u = (uint32_t)v; /* int32, enum: two's complement */

        memcpy(dst, &u, 4);
        break;
    }
    }
}

/* Is wire type w how a single value of type t is sent? */
static bool
wire_type_fits(ProtobufCType t, int w)
{
    switch (t) {
    case PROTOBUF_C_TYPE_FIXED32:
    case PROTOBUF_C_TYPE_SFIXED32:
    case PROTOBUF_C_TYPE_FLOAT:
        return w == PROTOBUF_C_WIRE_TYPE_32BIT;
    case PROTOBUF_C_TYPE_FIXED64:
    case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_DOUBLE:
        return w == PROTOBUF_C_WIRE_TYPE_64BIT;
    case PROTOBUF_C_TYPE_STRING:
    case PROTOBUF_C_TYPE_BYTES:
    case PROTOBUF_C_TYPE_MESSAGE:
        return w == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED;
    default:
        return w == PROTOBUF_C_WIRE_TYPE_VARINT;
    }
}

/*
 * The first pass over a message's bytes: count each repeated field's
 * elements and allocate its array (count left at 0 for the second pass).
 */
static bool
prepare_message(MemoryContext cxt, ProtobufCMessage *msg, const uint8_t *p,
                const uint8_t *end)
{
    const ProtobufCMessageDescriptor *desc = msg->descriptor;
    bool any_repeated = false;
    WireField wf;

    while (p < end) {
        const ProtobufCFieldDescriptor *f;

        if (!read_field(desc, &p, end, &wf))
            return false;
        f = wf.field;
        if (f == NULL || f->label != PROTOBUF_C_LABEL_REPEATED)
            continue;
        if (wf.wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED &&
            is_packable(f->type)) {
            int64 n = packed_count(f->type, wf.data, wf.len);

            if (n < 0)
                return false;
            COUNT(msg, f) += (size_t)n;
        } else
            COUNT(msg, f) += 1;
        any_repeated = true;
    }
    if (!any_repeated)
        return true;
    for (unsigned i = 0; i < desc->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &desc->fields[i];
        size_t n;

        if (f->label != PROTOBUF_C_LABEL_REPEATED || (n = COUNT(msg, f)) == 0)
            continue;
        *(void **)FIELD_PTR(msg, f->offset) =
            walk_alloc(cxt, element_size(f->type) * n);
        if (*(void **)FIELD_PTR(msg, f->offset) == NULL)
            return false;
        COUNT(msg, f) = 0;
    }
    return true;
}

/* Decode a packed repeated field's payload onto its array. */
static bool
store_packed(ProtobufCMessage *msg, const ProtobufCFieldDescriptor *f,
             const uint8_t *p, const uint8_t *end)
{
    char *array = *(char **)FIELD_PTR(msg, f->offset);
    Size size = element_size(f->type);

    while (p < end) {
        uint64_t v = 0;

        if (size == 8 && (f->type == PROTOBUF_C_TYPE_FIXED64 ||
                          f->type == PROTOBUF_C_TYPE_SFIXED64 ||
                          f->type == PROTOBUF_C_TYPE_DOUBLE)) {
            memcpy(&v, p, 8);
            p += 8;
        } else if (f->type == PROTOBUF_C_TYPE_FIXED32 ||
                   f->type == PROTOBUF_C_TYPE_SFIXED32 ||
                   f->type == PROTOBUF_C_TYPE_FLOAT) {
            uint32_t u;

            memcpy(&u, p, 4);
            v = u;
            p += 4;
        } else if (!read_varint(&p, end, &v))
            return false;
        store_scalar(f->type, array + size * COUNT(msg, f)++, v);
    }
    return true;
}

/*
 * Store one field of msg (second pass).  A message field's new, empty
 * child is returned in *child for the caller to decode; else *child is
 * NULL.
 */
static bool
store_field(MemoryContext cxt, ProtobufCMessage *msg, const WireField *wf,
            ProtobufCMessage **child)
{
    const ProtobufCFieldDescriptor *f = wf->field;
    char *member = FIELD_PTR(msg, f->offset);
    bool repeated = f->label == PROTOBUF_C_LABEL_REPEATED;

    *child = NULL;
    if (repeated && wf->wire_type == PROTOBUF_C_WIRE_TYPE_LENGTH_PREFIXED &&
        is_packable(f->type))
        return store_packed(msg, f, wf->data, wf->data + wf->len);
    if (!wire_type_fits(f->type, wf->wire_type))
        return false;
    if (repeated)
        member = *(char **)member + element_size(f->type) * COUNT(msg, f)++;
    else if (f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF)
        *(uint32_t *)FIELD_PTR(msg, f->quantifier_offset) = f->id;
    else if (f->quantifier_offset != 0)
        *(protobuf_c_boolean *)FIELD_PTR(msg, f->quantifier_offset) = 1;

    switch (f->type) {
    case PROTOBUF_C_TYPE_STRING: {
        char *s = walk_alloc(cxt, wf->len + 1);

        if (s == NULL)
            return false;
        memcpy(s, wf->data, wf->len);
        s[wf->len] = '\0';
        *(char **)member = s;
        return true;
    }
    case PROTOBUF_C_TYPE_BYTES: {
        ProtobufCBinaryData *bd = (ProtobufCBinaryData *)member;

        bd->len = wf->len;
        bd->data = NULL;
        if (wf->len > 0) {
            if ((bd->data = walk_alloc(cxt, wf->len)) == NULL)
                return false;
            memcpy(bd->data, wf->data, wf->len);
        }
        return true;
    }
    case PROTOBUF_C_TYPE_MESSAGE:
        *child = new_message(cxt, f->descriptor);
        *(ProtobufCMessage **)member = *child;
        return *child != NULL;
    default:
        store_scalar(f->type, member, wf->value);
        return true;
    }
}

ProtobufCMessage *
tdb_pb_decode(const ProtobufCMessageDescriptor *desc, const uint8_t *data,
              Size len, MemoryContext cxt, int *depth)
{
    DecodeFrame initial[STACK_INITIAL];
    WalkStack ws = {cxt, (char *)initial, sizeof(DecodeFrame),
                    0,   STACK_INITIAL,   0};
    ProtobufCMessage *root = new_message(cxt, desc);
    DecodeFrame *top;

    if (root == NULL || !prepare_message(cxt, root, data, data + len))
        return NULL;
    top = walk_push(&ws);
    *top = (DecodeFrame){root, data, data + len};
    while (ws.depth > 0) {
        WireField wf;
        ProtobufCMessage *child;

        top = walk_top(&ws);
        if (top->p >= top->end) {
            ws.depth--;
            continue;
        }
        if (!read_field(top->msg->descriptor, &top->p, top->end, &wf))
            return NULL;
        if (wf.field == NULL)
            continue;
        if (!store_field(cxt, top->msg, &wf, &child))
            return NULL;
        if (child == NULL)
            continue;
        if (!prepare_message(cxt, child, wf.data, wf.data + wf.len) ||
            (top = walk_push(&ws)) == NULL)
            return NULL;
        *top = (DecodeFrame){child, wf.data, wf.data + wf.len};
    }
    if (depth != NULL)
        *depth = ws.max_depth;
    return root;
}

/* ----------------------------------------------------------------------
 * Copying and measuring
 * ---------------------------------------------------------------------- */

/* A walk's place in a message: the next field, and element of it. */
typedef struct ChildCursor {
    const ProtobufCMessage *msg;
    unsigned field;
    size_t element;
} ChildCursor;

/*
 * Move cur to the next child message of cur->msg that is set: true with
 * the child in *child, its field in *field and, for a repeated field, its
 * index in *index; false when there is none left.
 */
static bool
next_child(ChildCursor *cur, const ProtobufCMessage **child,
           const ProtobufCFieldDescriptor **field, size_t *index)
{
    const ProtobufCMessageDescriptor *desc = cur->msg->descriptor;

    while (cur->field < desc->n_fields) {
        const ProtobufCFieldDescriptor *f = &desc->fields[cur->field];
        const ProtobufCMessage *c;

        if (f->type != PROTOBUF_C_TYPE_MESSAGE ||
            ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
             *(const uint32_t *)FIELD_PTR(cur->msg, f->quantifier_offset) !=
                 f->id)) {
            cur->field++;
            continue;
        }
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            if (cur->element >= COUNT(cur->msg, f)) {
                cur->field++;
                cur->element = 0;
                continue;
            }
            *index = cur->element;
            c = (*(ProtobufCMessage *const *const *)FIELD_PTR(
                cur->msg, f->offset))[cur->element++];
        } else {
            *index = 0;
            c = *(ProtobufCMessage *const *)FIELD_PTR(cur->msg, f->offset);
            cur->field++;
        }
        if (c != NULL && c != f->default_value) {
            *child = c;
            *field = f;
            return true;
        }
    }
    return false;
}

/* one message being copied, and its copy */
typedef struct CopyFrame {
    ChildCursor src;
    ProtobufCMessage *dst;
} CopyFrame;

/*
 * Give dst's field f (a byte copy of src's) its own copy of what it
 * points to, except messages, which the walk copies.
 */
static bool
copy_pointers(MemoryContext cxt, const ProtobufCFieldDescriptor *f,
              const ProtobufCMessage *src, ProtobufCMessage *dst)
{
    char *member = FIELD_PTR(dst, f->offset);
    size_t n = 1;

    if ((f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) &&
        *(const uint32_t *)FIELD_PTR(src, f->quantifier_offset) != f->id)
        return true; /* not the active member: shares the union */
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
        Size size = element_size(f->type) * (n = COUNT(src, f));
        void *array;

        if (n == 0)
            return true;
        if ((array = walk_alloc(cxt, size)) == NULL)
            return false;
        memcpy(array, *(void **)member, size);
        *(void **)member = array;
        member = array;
    }
    for (size_t i = 0; i < n; i++) {
        if (f->type == PROTOBUF_C_TYPE_STRING) {
            char **s = (char **)member + i;
            Size len;
            char *copy;

            if (*s == NULL)
                continue;
            len = strlen(*s) + 1;
            if ((copy = walk_alloc(cxt, len)) == NULL)
                return false;
            memcpy(copy, *s, len);
            *s = copy;
        } else if (f->type == PROTOBUF_C_TYPE_BYTES) {
            ProtobufCBinaryData *bd = (ProtobufCBinaryData *)member + i;
            void *copy;

            if (bd->len == 0 || bd->data == NULL)
                continue;
            if ((copy = walk_alloc(cxt, bd->len)) == NULL)
                return false;
            memcpy(copy, bd->data, bd->len);
            bd->data = copy;
        }
    }
    return true;
}

/* A byte copy of src in cxt with its strings, bytes and arrays copied. */
static ProtobufCMessage *
copy_message(MemoryContext cxt, const ProtobufCMessage *src)
{
    const ProtobufCMessageDescriptor *desc = src->descriptor;
    ProtobufCMessage *dst = walk_alloc(cxt, desc->sizeof_message);

    if (dst == NULL)
        return NULL;
    memcpy(dst, src, desc->sizeof_message);
    dst->n_unknown_fields = 0;
    dst->unknown_fields = NULL;
    for (unsigned i = 0; i < desc->n_fields; i++)
        if (!copy_pointers(cxt, &desc->fields[i], src, dst))
            return NULL;
    return dst;
}

ProtobufCMessage *
tdb_pb_copy(const ProtobufCMessage *msg, MemoryContext cxt)
{
    CopyFrame initial[STACK_INITIAL];
    WalkStack ws = {cxt, (char *)initial, sizeof(CopyFrame),
                    0,   STACK_INITIAL,   0};
    ProtobufCMessage *root = copy_message(cxt, msg);
    CopyFrame *top;

    if (root == NULL || (top = walk_push(&ws)) == NULL)
        return NULL;
    *top = (CopyFrame){{msg, 0, 0}, root};
    while (ws.depth > 0) {
        const ProtobufCFieldDescriptor *f;
        const ProtobufCMessage *child;
        ProtobufCMessage **slot;
        size_t index;

        top = walk_top(&ws);
        if (!next_child(&top->src, &child, &f, &index)) {
            ws.depth--;
            continue;
        }
        /* the copy's field points at the original's child so far */
        slot =
            f->label == PROTOBUF_C_LABEL_REPEATED
                ? *(ProtobufCMessage ***)FIELD_PTR(top->dst, f->offset) + index
                : (ProtobufCMessage **)FIELD_PTR(top->dst, f->offset);
        if ((*slot = copy_message(cxt, child)) == NULL ||
            (top = walk_push(&ws)) == NULL)
            return NULL;
        *top = (CopyFrame){{child, 0, 0}, *slot};
    }
    return root;
}

int
tdb_pb_depth(const ProtobufCMessage *msg, MemoryContext cxt)
{
    ChildCursor initial[STACK_INITIAL];
    WalkStack ws = {cxt, (char *)initial, sizeof(ChildCursor),
                    0,   STACK_INITIAL,   0};
    ChildCursor *top = walk_push(&ws);

    *top = (ChildCursor){msg, 0, 0};
    while (ws.depth > 0) {
        const ProtobufCFieldDescriptor *f;
        const ProtobufCMessage *child;
        size_t index;

        top = walk_top(&ws);
        if (!next_child(top, &child, &f, &index)) {
            ws.depth--;
            continue;
        }
        if ((top = walk_push(&ws)) == NULL)
            return -1;
        *top = (ChildCursor){child, 0, 0};
    }
    return ws.max_depth;
}
