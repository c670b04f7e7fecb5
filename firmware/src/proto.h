/* proto.h - frame codec of firmware/PROTOCOL.md: COBS with a 0x00
 * delimiter, CRC-16/CCITT-FALSE, and a byte-at-a-time parser that can never
 * wedge: every delimiter starts a fresh frame. Plain portable C (no AVR
 * headers), unit-tested on the host by test/test_proto.c. */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

#define PROTO_VERSION     1
#define PROTO_MAX_PAYLOAD 16
#define PROTO_MIN_RAW     4
#define PROTO_MAX_RAW     (PROTO_MIN_RAW + PROTO_MAX_PAYLOAD)
#define PROTO_MAX_ENC     (PROTO_MAX_RAW + 1)
#define PROTO_MAX_WIRE    (PROTO_MAX_ENC + 1) /* encoded + trailing 0x00 */

enum {
	T_PING = 0x01, T_INFO = 0x02,
	T_SET_SCORE = 0x10, T_SET_TEXT = 0x11, T_ALERT = 0x12,
	T_BRIGHTNESS = 0x13, T_CLEAR = 0x14,
	T_ACK = 0x80, T_NAK = 0x81, T_HELLO = 0x82
};

enum {
	NAK_BAD_CRC = 1, NAK_UNKNOWN_TYPE = 2, NAK_BAD_LENGTH = 3,
	NAK_BAD_VALUE = 4, NAK_OVERFLOW = 5
};

typedef struct {
	uint8_t seq;
	uint8_t type;
	uint8_t len;
	uint8_t data[PROTO_MAX_PAYLOAD];
} frame_t;

typedef struct {
	uint8_t buf[PROTO_MAX_ENC];
	uint8_t n;
	uint8_t overflow;
} parser_t;

/* Results of parser_push. */
enum { PARSE_MORE = 0, PARSE_FRAME = 1, PARSE_ERROR = 2 };

uint16_t crc16(const uint8_t *p, uint8_t n);
void parser_reset(parser_t *p);
/* parser_push adds one received byte. At a delimiter that ends a valid
 * frame it fills *f and returns PARSE_FRAME; for a bad one it returns
 * PARSE_ERROR with f->seq set (0 if unknown) and *reason one of NAK_*;
 * empty blocks and bytes inside a frame return PARSE_MORE. */
uint8_t parser_push(parser_t *p, uint8_t c, frame_t *f, uint8_t *reason);
/* proto_encode writes f COBS-encoded plus the trailing 0x00 to out
 * (PROTO_MAX_WIRE bytes) and returns the length written. */
uint8_t proto_encode(const frame_t *f, uint8_t *out);

#endif
