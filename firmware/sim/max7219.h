/* max7219.h - a chain of MAX7219 8-digit LED drivers as seen on their
 * DIN/CLK/LOAD lines: 16-bit words shift through the chain while LOAD is
 * low, and each chip latches its word when LOAD rises. */
#ifndef MAX7219_H
#define MAX7219_H

#include <stdint.h>

#define MAX_CHAIN 4

typedef struct {
	uint8_t digit[8];  /* digit registers 1..8 (DIG0..DIG7) */
	uint8_t decode;    /* decode-mode register */
	uint8_t intensity; /* 0..15 */
	uint8_t scan;      /* scan limit 0..7 */
	uint8_t on;        /* shutdown register: 1 = normal operation */
	uint8_t test;      /* display-test register */
} max7219_t;

typedef struct {
	int n;
	max7219_t chip[MAX_CHAIN];
	uint8_t shift[2 * MAX_CHAIN]; /* shift[2k+1], shift[2k]: chip k's word */
	int load_low;
} max7219_chain_t;

void max7219_init(max7219_chain_t *c, int n);
/* max7219_byte shifts one byte in (only while LOAD is low). */
void max7219_byte(max7219_chain_t *c, uint8_t b);
/* max7219_load reports the LOAD line; a rising edge latches. */
void max7219_load(max7219_chain_t *c, int level);
/* max7219_shown returns what chip k lights, leftmost digit first
 * (DIG7 .. DIG0), in no-decode bit order (DP A B C D E F G). */
void max7219_shown(const max7219_chain_t *c, int k, uint8_t out[8]);

#endif
