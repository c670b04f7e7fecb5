/* proto.c - see proto.h */
#include "proto.h"

uint16_t crc16(const uint8_t *p, uint8_t n)
{
	uint16_t crc = 0xFFFF;
	while (n--) {
		crc ^= (uint16_t)(*p++) << 8;
		for (uint8_t i = 0; i < 8; i++)
			crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
	}
	return crc;
}

void parser_reset(parser_t *p)
{
	p->n = 0;
	p->overflow = 0;
}

/* decode the COBS block in p->buf into raw; returns the decoded length, or
 * -1 for bad COBS. */
static int8_t cobs_decode(const parser_t *p, uint8_t *raw)
{
	uint8_t i = 0, n = 0;
	while (i < p->n) {
		uint8_t code = p->buf[i++];
		if (code == 0)
			return -1;
		for (uint8_t j = 1; j < code; j++) {
			if (i >= p->n)
				return -1;
			raw[n++] = p->buf[i++];
		}
		if (code != 0xFF && i < p->n)
			raw[n++] = 0;
	}
	return (int8_t)n;
}

uint8_t parser_push(parser_t *p, uint8_t c, frame_t *f, uint8_t *reason)
{
	if (c != 0) {
		if (p->n < sizeof p->buf)
			p->buf[p->n++] = c;
		else
			p->overflow = 1;
		return PARSE_MORE;
	}
	/* delimiter: whatever happens, the next byte starts a new frame */
	uint8_t n = p->n, overflow = p->overflow;
	parser_reset(p);
	if (n == 0 && !overflow)
		return PARSE_MORE;
	f->seq = 0;
	f->type = 0;
	f->len = 0;
	if (overflow) {
		*reason = NAK_OVERFLOW;
		return PARSE_ERROR;
	}
	p->n = n; /* cobs_decode reads p->n */
	uint8_t raw[PROTO_MAX_ENC];
	int8_t m = cobs_decode(p, raw);
	p->n = 0;
	if (m < 0) {
		*reason = NAK_OVERFLOW;
		return PARSE_ERROR;
	}
	if (m >= 1)
		f->seq = raw[0];
	if (m >= 2)
		f->type = raw[1];
	if (m < PROTO_MIN_RAW || m > PROTO_MAX_RAW) {
		*reason = NAK_BAD_LENGTH;
		return PARSE_ERROR;
	}
	uint16_t want = (uint16_t)((uint16_t)raw[m - 2] << 8 | raw[m - 1]);
	if (crc16(raw, (uint8_t)(m - 2)) != want) {
		*reason = NAK_BAD_CRC;
		return PARSE_ERROR;
	}
	f->len = (uint8_t)(m - PROTO_MIN_RAW);
	for (uint8_t i = 0; i < f->len; i++)
		f->data[i] = raw[2 + i];
	return PARSE_FRAME;
}

uint8_t proto_encode(const frame_t *f, uint8_t *out)
{
	uint8_t raw[PROTO_MAX_RAW];
	uint8_t len = f->len > PROTO_MAX_PAYLOAD ? PROTO_MAX_PAYLOAD : f->len;
	uint8_t n = 0;
	raw[n++] = f->seq;
	raw[n++] = f->type;
	for (uint8_t i = 0; i < len; i++)
		raw[n++] = f->data[i];
	uint16_t crc = crc16(raw, n);
	raw[n++] = (uint8_t)(crc >> 8);
	raw[n++] = (uint8_t)crc;

	uint8_t o = 0, code_at = o++, code = 1;
	for (uint8_t i = 0; i < n; i++) {
		if (raw[i] != 0) {
			out[o++] = raw[i];
			code++;
		}
		if (raw[i] == 0 || code == 0xFF) {
			out[code_at] = code;
			code_at = o++;
			code = 1;
		}
	}
	out[code_at] = code;
	out[o++] = 0;
	return o;
}
