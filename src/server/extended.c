/*
 * extended.c -- the extended query protocol (placeholder).
 */
#include "common/base.h"

#include "server/server_int.h"

struct ExtendedState {
    bool ignoring; /* skipping messages until Sync after an error */
};

void
tdb_extended_init(Backend *be)
{
    be->ext = tdb_mcxt_alloc_zero(be->cxt, sizeof(ExtendedState));
}

void
tdb_extended_forget_unnamed(Backend *be)
{
    (void)be;
}

bool
tdb_extended_ignoring(Backend *be)
{
    return be->ext != NULL && be->ext->ignoring;
}

bool
tdb_extended_message(Backend *be, PqMsg *m)
{
    if (m->type == 'S') {
        be->ext->ignoring = false;
        return true;
    }
    if (m->type == 'H') {
        (void)tdb_pq_flush(&be->port);
        return false;
    }
    tdb_backend_send_simple_error(be, ERROR, ERRCODE_FEATURE_NOT_SUPPORTED,
                                  "the extended query protocol is not "
                                  "supported yet");
    be->ext->ignoring = true;
    return false;
}
