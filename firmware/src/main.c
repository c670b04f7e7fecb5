/* main.c - ATmega328P scoreboard firmware (16 MHz).
 *
 * UART0 at 115200 8N1 (interrupt-driven receive into a ring buffer), a chain
 * of up to four MAX7219 8-digit modules on hardware SPI (MOSI D11 -> DIN,
 * SCK D13 -> CLK, D10 -> LOAD/CS), an active piezo buzzer on D8, and a 1 ms
 * Timer0 tick. The protocol and command logic are in proto.c and board.c;
 * this file is only the hardware around them. See ../README.md (wiring) and
 * ../PROTOCOL.md. */
#include <stdint.h>
#include <avr/io.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <util/atomic.h>

#include "board.h"
#include "proto.h"

#ifdef WITH_SIMAVR_SECTION
#include "avr_mcu_section.h"
AVR_MCU(F_CPU, "atmega328p");
#endif

#ifndef DISPLAYS
#define DISPLAYS 4
#endif

#define BAUD_UBRR 16 /* 16 MHz / (8 * 115200) - 1 with U2X0 */

/* MAX7219 registers */
#define MAX_NOOP       0x00
#define MAX_DIGIT0     0x01
#define MAX_DECODE     0x09
#define MAX_INTENSITY  0x0A
#define MAX_SCANLIMIT  0x0B
#define MAX_SHUTDOWN   0x0C
#define MAX_TEST       0x0F

#define CS_PORT  PORTB
#define CS_BIT   PB2
#define BUZ_PORT PORTB
#define BUZ_BIT  PB0

#define RX_SIZE 128 /* power of two */
static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t rx_overruns;
static volatile uint16_t ticks_ms;

static board_t board;
static parser_t parser;
/* what each chip's digit registers hold, so only changed ones are sent */
static uint8_t sent[DISPLAYS][BOARD_DIGITS];

ISR(USART_RX_vect)
{
	uint8_t status = UCSR0A;
	uint8_t c = UDR0;
	uint8_t next = (uint8_t)((rx_head + 1) & (RX_SIZE - 1));
	if (next == rx_tail || (status & (_BV(FE0) | _BV(DOR0)))) {
		/* full, framing error or overrun: drop the byte; the frame's CRC
		 * (or the next delimiter) takes care of the rest */
		rx_overruns++;
		return;
	}
	rx_buf[rx_head] = c;
	rx_head = next;
}

ISR(TIMER0_COMPA_vect)
{
	ticks_ms++;
}

static int16_t rx_pop(void)
{
	int16_t c = -1;
	ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
		if (rx_tail != rx_head) {
			c = rx_buf[rx_tail];
			rx_tail = (uint8_t)((rx_tail + 1) & (RX_SIZE - 1));
		}
	}
	return c;
}

static void uart_init(void)
{
	UBRR0H = 0;
	UBRR0L = BAUD_UBRR;
	UCSR0A = _BV(U2X0);
	UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
	UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

static void uart_put(uint8_t c)
{
	while (!(UCSR0A & _BV(UDRE0)))
		;
	UDR0 = c;
}

static void send_frame(const frame_t *f)
{
	uint8_t wire[PROTO_MAX_WIRE];
	uint8_t n = proto_encode(f, wire);
	for (uint8_t i = 0; i < n; i++)
		uart_put(wire[i]);
}

static void spi_init(void)
{
	DDRB |= _BV(PB3) | _BV(PB5) | _BV(PB2) | _BV(PB0); /* MOSI, SCK, CS, buzzer */
	CS_PORT |= _BV(CS_BIT);
	SPCR = _BV(SPE) | _BV(MSTR); /* mode 0, f/4 = 4 MHz (MAX7219: max 10 MHz) */
}

static void spi_put(uint8_t c)
{
	SPDR = c;
	while (!(SPSR & _BV(SPIF)))
		;
}

/* max_write sends one register write to every module of the chain; val(d)
 * gives the value for module d. The module furthest from the board is
 * shifted first. */
static void max_write_all(uint8_t reg, const uint8_t *vals)
{
	CS_PORT &= (uint8_t)~_BV(CS_BIT);
	for (int8_t d = DISPLAYS - 1; d >= 0; d--) {
		spi_put(reg);
		spi_put(vals[d]);
	}
	CS_PORT |= _BV(CS_BIT);
}

static void max_write_same(uint8_t reg, uint8_t val)
{
	uint8_t vals[DISPLAYS];
	for (uint8_t d = 0; d < DISPLAYS; d++)
		vals[d] = val;
	max_write_all(reg, vals);
}

static void render(uint8_t all)
{
	uint8_t dirty = board.dirty;
	board.dirty = 0;
	if (all) {
		max_write_same(MAX_TEST, 0);
		max_write_same(MAX_DECODE, 0);
		max_write_same(MAX_SCANLIMIT, 7);
		dirty = 0xFF;
	}
	if (dirty & DIRTY_INTENSITY)
		max_write_same(MAX_INTENSITY, board.intensity);
	if (dirty & 0x0F) {
		uint8_t vals[DISPLAYS];
		/* digit register 1 is the rightmost digit; a register is sent
		 * only when some chip's value changed (or on a full refresh) */
		for (uint8_t r = 0; r < BOARD_DIGITS; r++) {
			uint8_t pos = (uint8_t)(BOARD_DIGITS - 1 - r), change = all;
			for (uint8_t d = 0; d < DISPLAYS; d++) {
				vals[d] = board.segs[d][pos];
				if (vals[d] != sent[d][pos])
					change = 1;
				sent[d][pos] = vals[d];
			}
			if (change)
				max_write_all((uint8_t)(MAX_DIGIT0 + r), vals);
		}
	}
	if (dirty & DIRTY_VISIBLE) {
		uint8_t vals[DISPLAYS];
		for (uint8_t d = 0; d < DISPLAYS; d++)
			vals[d] = (board.visible >> d) & 1;
		max_write_all(MAX_SHUTDOWN, vals);
	}
	if (dirty & DIRTY_BUZZER) {
		if (board.buzzer)
			BUZ_PORT |= _BV(BUZ_BIT);
		else
			BUZ_PORT &= (uint8_t)~_BV(BUZ_BIT);
	}
}

static void timer_init(void)
{
	TCCR0A = _BV(WGM01);             /* CTC */
	TCCR0B = _BV(CS01) | _BV(CS00);  /* /64 */
	OCR0A = 249;                     /* 16 MHz / 64 / 250 = 1 kHz */
	TIMSK0 = _BV(OCIE0A);
}

int main(void)
{
	board_init(&board, DISPLAYS);
	parser_reset(&parser);
	spi_init();
	uart_init();
	timer_init();
	set_sleep_mode(SLEEP_MODE_IDLE);
	sei();
	render(1);

	frame_t in, out;
	board_hello(&board, 0, &out);
	send_frame(&out);

	uint16_t last = 0, since_refresh = 0;
	for (;;) {
		int16_t c;
		while ((c = rx_pop()) >= 0) {
			uint8_t reason;
			uint8_t r = parser_push(&parser, (uint8_t)c, &in, &reason);
			if (r == PARSE_FRAME) {
				board_handle(&board, &in, &out);
				render(0); /* show it before acknowledging */
				send_frame(&out);
			} else if (r == PARSE_ERROR) {
				board_nak(&in, reason, &out);
				send_frame(&out);
			}
		}
		uint16_t now;
		ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = ticks_ms; }
		uint16_t dt = (uint16_t)(now - last);
		if (dt) {
			last = now;
			board_tick(&board, dt);
			since_refresh += dt;
		}
		/* rewrite every register now and then: a MAX7219 upset by noise
		 * on its lines comes back by itself */
		render(since_refresh >= 2000);
		if (since_refresh >= 2000)
			since_refresh = 0;

		cli();
		if (rx_tail == rx_head && ticks_ms == now) {
			sleep_enable();
			sei();
			sleep_cpu();
			sleep_disable();
		}
		sei();
	}
}
