/* board.h - the scoreboard's command logic: applies decoded commands to the
 * display state, answers with ACK/NAK/HELLO, and runs alerts (blink + buzzer)
 * on a millisecond clock. Plain portable C: the AVR main loop (main.c) feeds
 * it and renders its state to the MAX7219 chain; the host tests drive it
 * directly. */
#ifndef BOARD_H
#define BOARD_H

#include <stdint.h>
#include "proto.h"

#define BOARD_MAX_DISPLAYS 4
#define BOARD_DIGITS       8
#define BOARD_BLINK_MS     250
#define BOARD_MAX_ALERT_MS 10000

#define FW_MAJOR 1
#define FW_MINOR 0
#define FW_PATCH 0

/* dirty bits: one per display (its digits), then these */
#define DIRTY_INTENSITY 0x10
#define DIRTY_VISIBLE   0x20
#define DIRTY_BUZZER    0x40

typedef struct {
	uint8_t displays;
	uint8_t segs[BOARD_MAX_DISPLAYS][BOARD_DIGITS]; /* leftmost digit first */
	uint8_t intensity;                              /* 0..15 */
	uint16_t alert_left[BOARD_MAX_DISPLAYS];        /* ms of alert left */
	uint16_t alert_elapsed[BOARD_MAX_DISPLAYS];     /* ms since it started */
	uint8_t visible;                                /* bit per display: lit (not blinked off) */
	uint8_t buzzer;                                 /* 1 while any alert runs */
	uint8_t dirty;
} board_t;

void board_init(board_t *b, uint8_t displays);
/* board_handle applies cmd and fills *reply with the answer to send. */
void board_handle(board_t *b, const frame_t *cmd, frame_t *reply);
/* board_nak fills *reply with a NAK for a frame the parser refused. */
void board_nak(const frame_t *bad, uint8_t reason, frame_t *reply);
/* board_hello fills *reply with a HELLO. */
void board_hello(const board_t *b, uint8_t seq, frame_t *reply);
/* board_tick advances alerts by ms milliseconds. */
void board_tick(board_t *b, uint16_t ms);

#endif
