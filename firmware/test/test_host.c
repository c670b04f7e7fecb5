/* test_host.c - host-compiled unit tests (gcc, ASan+UBSan) of the frame
 * parser (proto.c), the command logic (board.c) and the font (font.c):
 * valid, malformed, truncated and random frames. Prints "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "font.h"
#include "proto.h"

static int passed, failed;

#define CHECK(cond, ...) do { \
	if (cond) { passed++; } else { failed++; \
		printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

/* feed pushes bytes through the parser and records the last result */
typedef struct {
	int frames, errors;
	frame_t last;
	uint8_t last_reason;
} feed_result;

static feed_result feed(parser_t *p, const uint8_t *b, size_t n)
{
	feed_result r;
	memset(&r, 0, sizeof r);
	for (size_t i = 0; i < n; i++) {
		frame_t f;
		uint8_t reason = 0;
		uint8_t res = parser_push(p, b[i], &f, &reason);
		if (res == PARSE_FRAME) {
			r.frames++;
			r.last = f;
		} else if (res == PARSE_ERROR) {
			r.errors++;
			r.last = f;
			r.last_reason = reason;
		}
	}
	return r;
}

static size_t wire(const frame_t *f, uint8_t *out)
{
	out[0] = 0;
	return 1 + proto_encode(f, out + 1);
}

static frame_t mk(uint8_t seq, uint8_t type, uint8_t len, const uint8_t *data)
{
	frame_t f;
	memset(&f, 0, sizeof f);
	f.seq = seq;
	f.type = type;
	f.len = len;
	if (len)
		memcpy(f.data, data, len);
	return f;
}

static void test_crc_and_encoding(void)
{
	CHECK(crc16((const uint8_t *)"123456789", 9) == 0x29B1, "CRC-16/CCITT-FALSE check value");
	/* the example of PROTOCOL.md, the same bytes as the Go Example */
	uint8_t d[] = {2, 0, 0, 0, 42};
	frame_t f = mk(7, T_SET_SCORE, 5, d);
	uint8_t out[PROTO_MAX_WIRE + 1];
	size_t n = wire(&f, out);
	uint8_t want[] = {0x00, 0x04, 0x07, 0x10, 0x02, 0x01, 0x01, 0x04, 0x2a, 0x33, 0xa5, 0x00};
	CHECK(n == sizeof want && memcmp(out, want, n) == 0, "SET_SCORE example encodes as in PROTOCOL.md");
}

static void test_parser(void)
{
	parser_t p;
	parser_reset(&p);
	uint8_t out[64];
	uint8_t d[] = {1, 'H', 'E', 'L', 'L', 'O', ' ', ' ', ' '};
	frame_t f = mk(9, T_SET_TEXT, 9, d);
	size_t n = wire(&f, out);
	feed_result r = feed(&p, out, n);
	CHECK(r.frames == 1 && r.errors == 0, "valid frame: %d frames %d errors", r.frames, r.errors);
	CHECK(r.last.seq == 9 && r.last.type == T_SET_TEXT && r.last.len == 9 && memcmp(r.last.data, d, 9) == 0, "frame fields");

	/* bad CRC: flip a payload bit */
	uint8_t bad[64];
	memcpy(bad, out, n);
	bad[5] ^= 0x40;
	r = feed(&p, bad, n);
	CHECK(r.errors == 1 && r.last_reason == NAK_BAD_CRC && r.last.seq == 9, "bad CRC -> NAK_BAD_CRC with seq (reason %d)", r.last_reason);

	/* truncated frame followed by a good one: the truncated part is an
	 * error, the good one still parses */
	uint8_t trunc[128];
	size_t m = 0;
	memcpy(trunc, out, n - 4);
	m = n - 4;
	memcpy(trunc + m, out, n);
	m += n;
	r = feed(&p, trunc, m);
	CHECK(r.frames == 1 && r.errors == 1, "truncated then good: %d frames %d errors", r.frames, r.errors);

	/* too long: 40 non-zero bytes */
	uint8_t longb[42];
	memset(longb, 0x11, sizeof longb);
	longb[sizeof longb - 1] = 0;
	r = feed(&p, longb, sizeof longb);
	CHECK(r.errors == 1 && r.last_reason == NAK_OVERFLOW && r.last.seq == 0, "overflow -> NAK_OVERFLOW seq 0");

	/* bad COBS: code points past the end */
	uint8_t cobs[] = {0x09, 0x01, 0x02, 0x00};
	r = feed(&p, cobs, sizeof cobs);
	CHECK(r.errors == 1 && r.last_reason == NAK_OVERFLOW, "bad COBS -> NAK_OVERFLOW");

	/* too short */
	uint8_t shortb[] = {0x03, 0x05, 0x01, 0x00};
	r = feed(&p, shortb, sizeof shortb);
	CHECK(r.errors == 1 && r.last_reason == NAK_BAD_LENGTH && r.last.seq == 5, "short -> NAK_BAD_LENGTH");

	/* empty blocks are ignored */
	uint8_t zeros[] = {0, 0, 0, 0};
	r = feed(&p, zeros, sizeof zeros);
	CHECK(r.frames == 0 && r.errors == 0, "empty blocks ignored");

	/* payload too long for the protocol but valid COBS: 17-byte payload */
	uint8_t d16[16];
	memset(d16, 0x5A, sizeof d16);
	frame_t big = mk(3, T_SET_TEXT, 16, d16);
	n = wire(&big, out);
	r = feed(&p, out, n);
	CHECK(r.frames == 1 && r.last.len == 16, "16-byte payload is the most a frame carries");
}

static void test_random(void)
{
	parser_t p;
	parser_reset(&p);
	srand(12345);
	uint8_t d[] = {0, 0, 0, 0, 7};
	frame_t good = mk(77, T_SET_SCORE, 5, d);
	uint8_t gw[64];
	size_t gn = wire(&good, gw);
	int recovered = 0;
	const int rounds = 20000;
	for (int i = 0; i < rounds; i++) {
		uint8_t noise[96];
		size_t n = (size_t)(rand() % (int)sizeof noise);
		for (size_t j = 0; j < n; j++)
			noise[j] = (uint8_t)(rand() % 4 == 0 ? 0 : rand());
		feed(&p, noise, n);
		/* also random corruptions of a valid frame */
		uint8_t cw[64];
		memcpy(cw, gw, gn);
		cw[1 + rand() % (int)(gn - 2)] = (uint8_t)rand();
		feed(&p, cw, gn);
		feed_result r = feed(&p, gw, gn);
		if (r.frames == 1 && r.last.seq == 77 && r.last.type == T_SET_SCORE)
			recovered++;
	}
	CHECK(recovered == rounds, "a good frame after random noise always parses (%d/%d)", recovered, rounds);

	/* random valid frames round-trip */
	int ok = 0;
	for (int i = 0; i < rounds; i++) {
		frame_t f;
		memset(&f, 0, sizeof f);
		f.seq = (uint8_t)rand();
		f.type = (uint8_t)rand();
		f.len = (uint8_t)(rand() % (PROTO_MAX_PAYLOAD + 1));
		for (int j = 0; j < f.len; j++)
			f.data[j] = (uint8_t)(rand() % 3 ? rand() : 0);
		uint8_t w[64];
		size_t n = wire(&f, w);
		feed_result r = feed(&p, w, n);
		if (r.frames == 1 && r.last.seq == f.seq && r.last.type == f.type && r.last.len == f.len &&
		    memcmp(r.last.data, f.data, f.len) == 0 && n <= PROTO_MAX_WIRE + 1)
			ok++;
	}
	CHECK(ok == rounds, "random frames round-trip (%d/%d)", ok, rounds);

	/* random commands through the whole board never break its invariants */
	board_t b;
	board_init(&b, 4);
	int sane = 1;
	for (int i = 0; i < rounds; i++) {
		frame_t c, reply;
		memset(&c, 0, sizeof c);
		c.seq = (uint8_t)rand();
		c.type = (uint8_t)(rand() % 2 ? 0x10 + rand() % 6 : rand());
		c.len = (uint8_t)(rand() % (PROTO_MAX_PAYLOAD + 1));
		for (int j = 0; j < c.len; j++)
			c.data[j] = (uint8_t)(rand() % 8 ? rand() % 5 : rand());
		board_handle(&b, &c, &reply);
		board_tick(&b, (uint16_t)(rand() % 300));
		if (reply.seq != c.seq || (reply.type != T_ACK && reply.type != T_NAK && reply.type != T_HELLO) ||
		    b.intensity > 15 || (b.buzzer && !(b.alert_left[0] | b.alert_left[1] | b.alert_left[2] | b.alert_left[3])))
			sane = 0;
	}
	CHECK(sane, "random commands keep the board sane");
}

static uint8_t answer(board_t *b, uint8_t type, uint8_t len, const uint8_t *data, frame_t *reply)
{
	frame_t c = mk(5, type, len, data);
	board_handle(b, &c, reply);
	return reply->type == T_ACK ? 0 : reply->data[1];
}

static void test_board(void)
{
	board_t b;
	frame_t r;
	board_init(&b, 4);

	uint8_t score[] = {2, 0, 0, 0, 42};
	CHECK(answer(&b, T_SET_SCORE, 5, score, &r) == 0 && r.data[0] == T_SET_SCORE && r.seq == 5, "SET_SCORE acked");
	CHECK(b.segs[2][6] == font_segments('4') && b.segs[2][7] == font_segments('2') && b.segs[2][0] == 0, "42 right-aligned on display 2");
	CHECK(b.dirty & 0x04, "display 2 dirty");

	uint8_t neg[] = {1, 0xFF, 0x67, 0x69, 0x81}; /* -9999999 */
	CHECK(answer(&b, T_SET_SCORE, 5, neg, &r) == 0, "-9999999 fits");
	CHECK(b.segs[1][0] == font_segments('-') && b.segs[1][7] == font_segments('9'), "minus sign leftmost");
	uint8_t big[] = {1, 0x05, 0xF5, 0xE1, 0x00}; /* 100000000 */
	CHECK(answer(&b, T_SET_SCORE, 5, big, &r) == NAK_BAD_VALUE, "100000000 does not fit");
	uint8_t player[] = {4, 0, 0, 0, 1};
	CHECK(answer(&b, T_SET_SCORE, 5, player, &r) == NAK_BAD_VALUE, "player 4 refused");
	CHECK(answer(&b, T_SET_SCORE, 4, score, &r) == NAK_BAD_LENGTH, "short SET_SCORE refused");
	CHECK(answer(&b, 0x55, 0, NULL, &r) == NAK_UNKNOWN_TYPE, "unknown type refused");

	uint8_t text[] = {0, 'A', 'b' | 0x80, 'c', ' ', ' ', ' ', ' ', '8'};
	CHECK(answer(&b, T_SET_TEXT, 9, text, &r) == 0, "SET_TEXT acked");
	CHECK(b.segs[0][1] == (0x1F | 0x80) && b.segs[0][7] == 0x7F, "text cells with decimal point");

	uint8_t level[] = {15};
	CHECK(answer(&b, T_BRIGHTNESS, 1, level, &r) == 0 && b.intensity == 15, "BRIGHTNESS 15");
	uint8_t level16[] = {16};
	CHECK(answer(&b, T_BRIGHTNESS, 1, level16, &r) == NAK_BAD_VALUE && b.intensity == 15, "BRIGHTNESS 16 refused");

	uint8_t alert[] = {3, 0x02, 0x00}; /* 512 ms */
	CHECK(answer(&b, T_ALERT, 3, alert, &r) == 0 && b.buzzer == 1, "ALERT starts the buzzer");
	CHECK(!(b.visible & 0x08), "alert starts with the display off");
	board_tick(&b, 250);
	CHECK(b.visible & 0x08, "on after 250 ms");
	board_tick(&b, 250);
	CHECK(!(b.visible & 0x08) && b.buzzer, "off again after 500 ms");
	board_tick(&b, 20);
	CHECK((b.visible & 0x08) && !b.buzzer, "alert over: lit, buzzer off");
	uint8_t alert0[] = {3, 0, 0};
	CHECK(answer(&b, T_ALERT, 3, alert0, &r) == NAK_BAD_VALUE, "ALERT 0 ms refused");

	CHECK(answer(&b, T_ALERT, 3, alert, &r) == 0, "ALERT again");
	CHECK(answer(&b, T_CLEAR, 0, NULL, &r) == 0, "CLEAR acked");
	int blank = 1;
	for (int d = 0; d < 4; d++)
		for (int i = 0; i < 8; i++)
			if (b.segs[d][i])
				blank = 0;
	CHECK(blank && !b.buzzer && b.visible == 0x0F, "CLEAR blanks everything and stops alerts");

	CHECK(answer(&b, T_PING, 0, NULL, &r) == 0 && r.data[0] == T_PING, "PING acked");
	answer(&b, T_INFO, 0, NULL, &r);
	CHECK(r.type == T_HELLO && r.seq == 5 && r.data[0] == PROTO_VERSION && r.data[4] == 4, "INFO answered with HELLO");

	board_t two;
	board_init(&two, 2);
	uint8_t p2[] = {2, 0, 0, 0, 1};
	CHECK(answer(&two, T_SET_SCORE, 5, p2, &r) == NAK_BAD_VALUE, "player 2 refused on a two-display board");
}

static void test_font(void)
{
	CHECK(font_segments('8') == 0x7F && font_segments('0') == 0x7E && font_segments(' ') == 0, "digits");
	CHECK(font_segments('8' | 0x80) == 0xFF, "decimal point passes through");
	CHECK(font_segments(0x01) == 0 && font_segments(0x7F) == 0, "control characters are blank");
}

int main(void)
{
	test_crc_and_encoding();
	test_parser();
	test_random();
	test_board();
	test_font();
	printf("firmware host tests: %d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
