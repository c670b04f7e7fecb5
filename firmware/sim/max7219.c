/* max7219.c - see max7219.h */
#include <string.h>
#include "max7219.h"

void max7219_init(max7219_chain_t *c, int n)
{
	memset(c, 0, sizeof *c);
	c->n = n < 1 ? 1 : n > MAX_CHAIN ? MAX_CHAIN : n;
	/* power-on state: shut down, scan limit 0, no decode */
}

void max7219_byte(max7219_chain_t *c, uint8_t b)
{
	if (!c->load_low)
		return;
	for (int i = 2 * c->n - 1; i > 0; i--)
		c->shift[i] = c->shift[i - 1];
	c->shift[0] = b;
}

static void latch(max7219_t *m, uint8_t reg, uint8_t val)
{
	switch (reg & 0x0F) {
	case 0x00: break; /* no-op */
	case 0x09: m->decode = val; break;
	case 0x0A: m->intensity = val & 0x0F; break;
	case 0x0B: m->scan = val & 0x07; break;
	case 0x0C: m->on = val & 1; break;
	case 0x0F: m->test = val & 1; break;
	default:
		if ((reg & 0x0F) >= 1 && (reg & 0x0F) <= 8)
			m->digit[(reg & 0x0F) - 1] = val;
	}
}

void max7219_load(max7219_chain_t *c, int level)
{
	if (!level) {
		c->load_low = 1;
		return;
	}
	if (!c->load_low)
		return;
	c->load_low = 0;
	for (int k = 0; k < c->n; k++)
		latch(&c->chip[k], c->shift[2 * k + 1], c->shift[2 * k]);
}

/* Code B font (decode mode), in no-decode bit order */
static const uint8_t code_b[16] = {
	0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70,
	0x7F, 0x7B, 0x01, 0x4F, 0x37, 0x0E, 0x67, 0x00,
};

void max7219_shown(const max7219_chain_t *c, int k, uint8_t out[8])
{
	const max7219_t *m = &c->chip[k];
	for (int pos = 0; pos < 8; pos++) {
		int dig = 7 - pos;
		uint8_t s;
		if (m->test)
			s = 0xFF;
		else if (!m->on || dig > m->scan)
			s = 0;
		else if (m->decode & (1 << dig))
			s = (uint8_t)(code_b[m->digit[dig] & 0x0F] | (m->digit[dig] & 0x80));
		else
			s = m->digit[dig];
		out[pos] = s;
	}
}
