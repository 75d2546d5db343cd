/*
 * test_scram.c -- the SCRAM-SHA-256 building blocks against published
 * known answers, and PostgreSQL 15's verifier format.
 *
 *   test_sha256        FIPS 180-2 examples ("abc", the 448-bit message,
 *       a million 'a's fed in odd pieces) and the empty string.
 *   test_hmac          RFC 4231 test cases 1, 2 and 6 (a key longer than
 *       a block).
 *   test_pbkdf2        PBKDF2-HMAC-SHA-256 vectors (RFC 7914 section 11,
 *       c = 1; and the widely published "password"/"salt"/4096).
 *   test_base64        RFC 4648 section 10 vectors; invalid inputs.
 *   test_rfc7677       the SCRAM-SHA-256 exchange of RFC 7677 section 3:
 *       the client's proof verifies, the server signature is v=.
 *   test_pg_verifier   a verifier made by PostgreSQL 15 for 'pencil'
 *       (SET password_encryption = 'scram-sha-256'; CREATE ROLE ...
 *       PASSWORD 'pencil'; SELECT rolpassword FROM pg_authid) parses,
 *       verifies 'pencil' and not 'pencil2', and is rebuilt byte for
 *       byte from its salt.
 *   test_parse_errors  malformed verifiers are refused.
 *   test_random        getrandom works and differs between calls.
 */
#include "common/base.h"

#include <stdio.h>
#include <string.h>

#include "common/base64.h"
#include "common/scram.h"
#include "common/sha256.h"
#include "test.h"

/* Lowercase hex of len bytes into out (2 * len + 1). */
static const char *
hex(const uint8 *bytes, Size len, char *out)
{
    for (Size i = 0; i < len; i++)
        sprintf(out + 2 * i, "%02x", bytes[i]);
    return out;
}

static const char *
sha256_hex(const void *data, Size len, char *out)
{
    uint8 d[SHA256_DIGEST_LENGTH];

    tdb_sha256(data, len, d);
    return hex(d, sizeof(d), out);
}

TEST_BEGIN(test_sha256)
{
    char out[65];
    Sha256Context c;
    uint8 d[SHA256_DIGEST_LENGTH];
    char chunk[1000];
    Size fed = 0, piece = 1;

    expect_str_eq(sha256_hex("abc", 3, out),
                  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect_str_eq(sha256_hex("", 0, out),
                  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect_str_eq(
        sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                   56, out),
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");

    /* one million 'a', in pieces of 1, 2, 3 ... bytes */
    memset(chunk, 'a', sizeof(chunk));
    tdb_sha256_init(&c);
    while (fed < 1000000) {
        Size n = piece < 1000000 - fed ? piece : 1000000 - fed;

        tdb_sha256_update(&c, chunk, n);
        fed += n;
        piece = piece % 999 + 1;
    }
    tdb_sha256_final(&c, d);
    expect_str_eq(hex(d, sizeof(d), out),
                  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
TEST_END

TEST_BEGIN(test_hmac)
{
    uint8 key[131], mac[SHA256_DIGEST_LENGTH];
    char out[65];
    const char *big = "Test Using Larger Than Block-Size Key - Hash Key First";

    memset(key, 0x0b, 20);
    tdb_hmac_sha256(key, 20, "Hi There", 8, mac);
    expect_str_eq(hex(mac, sizeof(mac), out),
                  "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
    tdb_hmac_sha256("Jefe", 4, "what do ya want for nothing?", 28, mac);
    expect_str_eq(hex(mac, sizeof(mac), out),
                  "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
    memset(key, 0xaa, sizeof(key));
    tdb_hmac_sha256(key, sizeof(key), big, strlen(big), mac);
    expect_str_eq(hex(mac, sizeof(mac), out),
                  "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
}
TEST_END

TEST_BEGIN(test_pbkdf2)
{
    uint8 dk[SCRAM_KEY_LEN];
    char out[65];

    tdb_scram_salted_password("passwd", 6, (const uint8 *)"salt", 4, 1, dk);
    expect_str_eq(hex(dk, sizeof(dk), out),
                  "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc");
    tdb_scram_salted_password("password", 8, (const uint8 *)"salt", 4, 4096,
                              dk);
    expect_str_eq(hex(dk, sizeof(dk), out),
                  "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
}
TEST_END

TEST_BEGIN(test_base64)
{
    static const char *const plain[] = {"", "f", "fo", "foo", "foob",
                                        "fooba", "foobar"};
    static const char *const coded[] = {"", "Zg==", "Zm8=", "Zm9v",
                                        "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
    static const char *const bad[] = {"Zg=", "Z===", "Zm9v Yg==", "Zg==Zg==",
                                      "Zm9\n", "Zm=v", "Zm9vYg!="};
    char enc[32];
    uint8 dec[32];

    for (Size i = 0; i < lengthof(plain); i++) {
        int n;

        expect_u64_eq(tdb_b64_encode(plain[i], strlen(plain[i]), enc),
                      strlen(coded[i]));
        expect_str_eq(enc, coded[i]);
        n = tdb_b64_decode(coded[i], strlen(coded[i]), dec, sizeof(dec));
        expect_int_eq(n, (long long)strlen(plain[i]));
        expect_true(memcmp(dec, plain[i], (Size)n) == 0);
    }
    for (Size i = 0; i < lengthof(bad); i++)
        expect_int_eq(tdb_b64_decode(bad[i], strlen(bad[i]), dec, sizeof(dec)),
                      -1);
    /* does not fit */
    expect_int_eq(tdb_b64_decode("Zm9vYmFy", 8, dec, 5), -1);
}
TEST_END

/* RFC 7677 section 3: user "user", password "pencil". */
TEST_BEGIN(test_rfc7677)
{
    const char *server_first =
        "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        "s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096";
    const char *final_bare =
        "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0";
    const char *proof64 = "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=";
    char authmsg[512], verifier[SCRAM_VERIFIER_MAXLEN], sig64[48];
    uint8 salt[16], proof[SCRAM_KEY_LEN], sig[SCRAM_KEY_LEN];
    ScramVerifier v;

    expect_int_eq(tdb_b64_decode("W22ZaJ0SNY7soEsUEjb6gQ==", 24, salt,
                                 sizeof(salt)),
                  16);
    tdb_scram_build_verifier("pencil", salt, 16, 4096, verifier);
    expect_true(tdb_scram_parse_verifier(verifier, &v));
    snprintf(authmsg, sizeof(authmsg), "%s,%s,%s",
             "n=user,r=rOprNGfwEbeRWgbNEkqO", server_first, final_bare);
    expect_int_eq(tdb_b64_decode(proof64, strlen(proof64), proof,
                                 sizeof(proof)),
                  SCRAM_KEY_LEN);
    expect_true(tdb_scram_verify_client_proof(&v, authmsg, strlen(authmsg),
                                              proof));
    tdb_scram_server_signature(&v, authmsg, strlen(authmsg), sig);
    tdb_b64_encode(sig, sizeof(sig), sig64);
    expect_str_eq(sig64, "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=");

    /* one flipped bit of the proof fails */
    proof[7] ^= 0x10;
    expect_false(tdb_scram_verify_client_proof(&v, authmsg, strlen(authmsg),
                                               proof));
}
TEST_END

TEST_BEGIN(test_pg_verifier)
{
    /* from PostgreSQL 15.18 (see the header) */
    const char *pg =
        "SCRAM-SHA-256$4096:33/7peTZnzNTxKRi3siOPQ==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:"
        "/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=";
    char rebuilt[SCRAM_VERIFIER_MAXLEN];
    ScramVerifier v;

    expect_true(tdb_scram_parse_verifier(pg, &v));
    expect_int_eq(v.iterations, 4096);
    expect_int_eq(v.saltlen, 16);
    expect_true(tdb_scram_verify_password(&v, "pencil"));
    expect_false(tdb_scram_verify_password(&v, "pencil2"));
    expect_false(tdb_scram_verify_password(&v, ""));
    tdb_scram_build_verifier("pencil", v.salt, v.saltlen, v.iterations,
                             rebuilt);
    expect_str_eq(rebuilt, pg);
}
TEST_END

TEST_BEGIN(test_parse_errors)
{
    static const char *const bad[] = {
        "",
        "md5abcdef",
        "SCRAM-SHA-256",
        "SCRAM-SHA-256$",
        "SCRAM-SHA-256$0:c2FsdA==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:"
        "/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=",
        "SCRAM-SHA-256$4096:c2FsdA==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=",
        "SCRAM-SHA-256$4096:c2FsdA==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:c2FsdA==",
        "SCRAM-SHA-256$4096:c2Fsd!==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:"
        "/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=",
        "SCRAM-SHA-256$x:c2FsdA==$"
        "6pPJ30UGLDkxLXqcwKO4Pp3JrU0LGJzg5vBQlhvBHRg=:"
        "/7Cr3OghXtJRjQF3Mt+J9/mD3abRLo4kp/IOumGxL8M=",
    };
    ScramVerifier v;

    for (Size i = 0; i < lengthof(bad); i++)
        expect_false(tdb_scram_parse_verifier(bad[i], &v));
}
TEST_END

TEST_BEGIN(test_random)
{
    uint8 a[32], b[32];

    expect_true(tdb_strong_random(a, sizeof(a)));
    expect_true(tdb_strong_random(b, sizeof(b)));
    expect_false(memcmp(a, b, sizeof(a)) == 0);
    expect_true(tdb_timingsafe_equal(a, a, sizeof(a)));
    expect_false(tdb_timingsafe_equal(a, b, sizeof(a)));
}
TEST_END

int
main(int argc, char **argv)
{
    return test_main(argc, argv, "common_scram", TEST_CASE(test_sha256),
                     TEST_CASE(test_hmac), TEST_CASE(test_pbkdf2),
                     TEST_CASE(test_base64), TEST_CASE(test_rfc7677),
                     TEST_CASE(test_pg_verifier), TEST_CASE(test_parse_errors),
                     TEST_CASE(test_random));
}
