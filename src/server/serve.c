/*
 * serve.c -- the `tupledb serve` command line.
 *
 *   tupledb serve [DATADIR] [OPTION]...
 *
 *   -p, --port=PORT              TCP port and socket number (5433)
 *   -h, --listen=ADDRESSES       comma-separated addresses to listen on,
 *                                "*" for all, "" for none (localhost)
 *   -k, --socket-dir=DIR         directory of the Unix socket, "" for
 *                                none (/tmp)
 *   -N, --max-connections=N      sessions at once (100)
 *   -B, --buffers=N              buffer pool size in 8 kB pages
 *       --hba=FILE               client authentication file
 *                                (DATADIR/pg_hba.conf)
 *   -U, --superuser=NAME         the superuser's name if DATADIR is
 *                                created (initdb -U; the OS user)
 *       --help                   this text
 *
 * The short letters are postgres's own.  DATADIR defaults to ./tdbdata,
 * as for the shell, and is created if it does not exist.
 */
#include "common/base.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/server.h"

static void
usage(void)
{
    printf("tupledb serve runs tupledb as a PostgreSQL-compatible server.\n\n"
           "Usage:\n  tupledb serve [DATADIR] [OPTION]...\n\n"
           "DATADIR is the database directory (created if needed; default "
           "./tdbdata).\n"
           "Clients connect to the database by the directory's name or as "
           "\"postgres\".\n\n"
           "Options:\n"
           "  -p, --port=PORT            port number to listen on "
           "(default %d)\n"
           "  -h, --listen=ADDRESSES     host names or IP addresses to "
           "listen on,\n"
           "                             comma-separated; \"*\" for all, "
           "\"\" for none\n"
           "                             (default localhost)\n"
           "  -k, --socket-dir=DIR       directory of the Unix-domain "
           "socket; \"\" for\n"
           "                             none (default /tmp)\n"
           "  -N, --max-connections=N    maximum number of connections "
           "(default 100)\n"
           "  -B, --buffers=N            number of 8 kB shared buffers\n"
           "      --hba=FILE             client authentication file "
           "(default\n"
           "                             DATADIR/pg_hba.conf)\n"
           "  -U, --superuser=NAME       superuser name when DATADIR is "
           "created\n"
           "                             (default: the operating-system "
           "user)\n"
           "      --help                 show this help, then exit\n\n"
           "SIGTERM or SIGINT shuts the server down cleanly.\n",
           TDB_SERVER_DEFAULT_PORT);
}

/* A decimal in [min, max]; exits with status 1 otherwise. */
static int
int_option(const char *name, const char *value, int min, int max)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(value, &end, 10);
    if (errno != 0 || end == value || *end != '\0' || v < min || v > max) {
        fprintf(stderr,
                "tupledb serve: invalid value \"%s\" for --%s (must be %d "
                "to %d)\n",
                value, name, min, max);
        exit(1);
    }
    return (int)v;
}

int
tdb_server_main(int argc, char **argv)
{
    static const struct option long_options[] = {
        {"port", required_argument, NULL, 'p'},
        {"listen", required_argument, NULL, 'h'},
        {"socket-dir", required_argument, NULL, 'k'},
        {"max-connections", required_argument, NULL, 'N'},
        {"buffers", required_argument, NULL, 'B'},
        {"hba", required_argument, NULL, 2},
        {"superuser", required_argument, NULL, 'U'},
        {"help", no_argument, NULL, 1},
        {NULL, 0, NULL, 0},
    };
    ServerOptions o;
    int c;

    tdb_server_options_init(&o);
    optind = 1;
    while ((c = getopt_long(argc, argv, "p:h:k:N:B:U:", long_options, NULL)) !=
           -1) {
        switch (c) {
        case 'p':
            o.port = int_option("port", optarg, 1, 65535);
            break;
        case 'h':
            o.listen_addresses = optarg;
            break;
        case 'k':
            o.socket_dir = optarg;
            break;
        case 'N':
            o.max_connections =
                int_option("max-connections", optarg, 1, 100000);
            break;
        case 'B':
            o.nbuffers = int_option("buffers", optarg, 16, INT_MAX);
            break;
        case 2:
            o.hba_file = optarg;
            break;
        case 'U':
            o.superuser = optarg;
            break;
        case 1:
            usage();
            return 0;
        default:
            fprintf(stderr,
                    "Try \"tupledb serve --help\" for more information.\n");
            return 1;
        }
    }
    if (optind < argc)
        o.datadir = argv[optind++];
    if (optind < argc) {
        fprintf(stderr, "tupledb serve: too many command-line arguments "
                        "(first is \"%s\")\n",
                argv[optind]);
        return 1;
    }
    if (o.datadir == NULL)
        o.datadir = "./tdbdata";
    return tdb_server_run(&o);
}
