/* board.c - see board.h */
#include "board.h"
#include "font.h"

void board_init(board_t *b, uint8_t displays)
{
	if (displays < 1)
		displays = 1;
	if (displays > BOARD_MAX_DISPLAYS)
		displays = BOARD_MAX_DISPLAYS;
	b->displays = displays;
	for (uint8_t d = 0; d < BOARD_MAX_DISPLAYS; d++) {
		for (uint8_t i = 0; i < BOARD_DIGITS; i++)
			b->segs[d][i] = 0;
		b->alert_left[d] = 0;
		b->alert_elapsed[d] = 0;
	}
	b->intensity = 8;
	b->visible = 0x0F;
	b->buzzer = 0;
	b->dirty = 0xFF;
}

static void answer(frame_t *r, uint8_t seq, uint8_t type, uint8_t len)
{
	r->seq = seq;
	r->type = type;
	r->len = len;
}

void board_nak(const frame_t *bad, uint8_t reason, frame_t *reply)
{
	answer(reply, bad->seq, T_NAK, 2);
	reply->data[0] = bad->type;
	reply->data[1] = reason;
}

void board_hello(const board_t *b, uint8_t seq, frame_t *reply)
{
	answer(reply, seq, T_HELLO, 5);
	reply->data[0] = PROTO_VERSION;
	reply->data[1] = FW_MAJOR;
	reply->data[2] = FW_MINOR;
	reply->data[3] = FW_PATCH;
	reply->data[4] = b->displays;
}

static void set_cells(board_t *b, uint8_t d, const uint8_t *cells)
{
	for (uint8_t i = 0; i < BOARD_DIGITS; i++)
		b->segs[d][i] = font_segments(cells[i]);
	b->dirty |= (uint8_t)(1u << d);
}

/* format score right-aligned into 8 cells; the caller checked the range */
static void format_score(int32_t score, uint8_t *cells)
{
	uint8_t neg = score < 0;
	uint32_t v = neg ? (uint32_t)(-score) : (uint32_t)score;
	int8_t i = BOARD_DIGITS - 1;
	do {
		cells[i--] = (uint8_t)('0' + v % 10);
		v /= 10;
	} while (v && i >= 0);
	if (neg && i >= 0)
		cells[i--] = '-';
	while (i >= 0)
		cells[i--] = ' ';
}

static void stop_alert(board_t *b, uint8_t d)
{
	b->alert_left[d] = 0;
	b->alert_elapsed[d] = 0;
	if (!(b->visible & (1u << d))) {
		b->visible |= (uint8_t)(1u << d);
		b->dirty |= DIRTY_VISIBLE;
	}
}

static void update_buzzer(board_t *b)
{
	uint8_t on = 0;
	for (uint8_t d = 0; d < b->displays; d++)
		if (b->alert_left[d])
			on = 1;
	if (on != b->buzzer) {
		b->buzzer = on;
		b->dirty |= DIRTY_BUZZER;
	}
}

static const uint8_t payload_len[] = {
	/* indexed by type & 0x0F for the 0x10 group */
	5, 9, 3, 1, 0,
};

void board_handle(board_t *b, const frame_t *c, frame_t *r)
{
	int8_t want = -1;
	if (c->type == T_PING || c->type == T_INFO)
		want = 0;
	else if (c->type >= T_SET_SCORE && c->type <= T_CLEAR)
		want = (int8_t)payload_len[c->type - T_SET_SCORE];
	if (want < 0) {
		board_nak(c, NAK_UNKNOWN_TYPE, r);
		return;
	}
	if (c->len != (uint8_t)want) {
		board_nak(c, NAK_BAD_LENGTH, r);
		return;
	}
	const uint8_t *p = c->data;
	uint8_t d = p[0];
	switch (c->type) {
	case T_INFO:
		board_hello(b, c->seq, r);
		return;
	case T_SET_SCORE: {
		int32_t score = (int32_t)((uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 |
		                          (uint32_t)p[3] << 8 | p[4]);
		if (d >= b->displays || score < -9999999L || score > 99999999L)
			goto bad_value;
		uint8_t cells[BOARD_DIGITS];
		format_score(score, cells);
		set_cells(b, d, cells);
		break;
	}
	case T_SET_TEXT:
		if (d >= b->displays)
			goto bad_value;
		set_cells(b, d, p + 1);
		break;
	case T_ALERT: {
		uint16_t ms = (uint16_t)(p[1] << 8 | p[2]);
		if (d >= b->displays || ms == 0 || ms > BOARD_MAX_ALERT_MS)
			goto bad_value;
		b->alert_left[d] = ms;
		b->alert_elapsed[d] = 0;
		b->visible &= (uint8_t)~(1u << d); /* blink starts with "off" */
		b->dirty |= DIRTY_VISIBLE;
		update_buzzer(b);
		break;
	}
	case T_BRIGHTNESS:
		if (d > 15)
			goto bad_value;
		if (b->intensity != d) {
			b->intensity = d;
			b->dirty |= DIRTY_INTENSITY;
		}
		break;
	case T_CLEAR:
		for (uint8_t i = 0; i < b->displays; i++) {
			static const uint8_t blank[BOARD_DIGITS] = {' ', ' ', ' ', ' ', ' ', ' ', ' ', ' '};
			set_cells(b, i, blank);
			stop_alert(b, i);
		}
		update_buzzer(b);
		break;
	default: /* T_PING */
		break;
	}
	answer(r, c->seq, T_ACK, 1);
	r->data[0] = c->type;
	return;
bad_value:
	board_nak(c, NAK_BAD_VALUE, r);
}

void board_tick(board_t *b, uint16_t ms)
{
	for (uint8_t d = 0; d < b->displays; d++) {
		if (!b->alert_left[d])
			continue;
		if (ms >= b->alert_left[d]) {
			stop_alert(b, d);
			continue;
		}
		b->alert_left[d] -= ms;
		b->alert_elapsed[d] += ms;
		uint8_t on = (uint8_t)((b->alert_elapsed[d] / BOARD_BLINK_MS) & 1);
		uint8_t bit = (uint8_t)(1u << d);
		if (on != !!(b->visible & bit)) {
			b->visible ^= bit;
			b->dirty |= DIRTY_VISIBLE;
		}
	}
	update_buzzer(b);
}
