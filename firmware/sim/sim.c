/* scoreboard-sim - the simulated scoreboard board.
 *
 * Loads the real firmware ELF into simavr (ATmega328P, 16 MHz), bridges
 * UART0 to a pseudo-terminal (optionally behind a symlink at a fixed path, as
 * a USB device reappears at the same path), decodes the SPI traffic into a
 * chain of MAX7219 chips, and writes every change of what the digits and the
 * buzzer show as JSON lines on stdout. It can inject faults into the serial
 * line: noise bytes, dropped bytes and stalls.
 *
 *   scoreboard-sim [-f firmware.elf] [-l /path/link] [-d displays]
 *                  [--noise P] [--drop P] [--stall MS] [--stall-at MS]
 *                  [--seed N] [--trace-frames] [--no-stdin]
 *
 * While it runs, lines on stdin change the faults: "noise P", "drop P",
 * "stall MS", "quit". It exits when stdin closes (unless --no-stdin), on
 * SIGINT/SIGTERM, or when the firmware crashes.
 *
 * Output lines (one JSON object each):
 *   {"event":"ready","pty":"/dev/pts/N","link":"...","firmware":"...","displays":4}
 *   {"event":"display","t_us":T,"buzzer":false,"displays":[{"text":"      42",
 *     "segs":"000000000000337e","on":true,"intensity":8},...]}
 *   {"event":"frame","dir":"in"|"out","t_us":T}   (with --trace-frames)
 *   {"event":"fault","noise":P,"drop":P,"stall_ms":MS}
 *   {"event":"exit","reason":"..."}
 * t_us is simulated time (CPU cycles / 16). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_io.h"
#include "sim_irq.h"
#include "avr_uart.h"
#include "avr_spi.h"
#include "avr_ioport.h"

#include "font.h"
#include "max7219.h"

#define POLL_CYCLES 8000 /* 0.5 ms of simulated time between pty polls */
#define BOOT_CYCLES 32000 /* feed the UART only once the firmware set it up */

static avr_t *avr;
static max7219_chain_t chain;
static int master_fd = -1, slave_fd = -1;
static int buzzer;
static int xon = 1;
static int trace_frames;
static double noise_p, drop_p;
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static char link_path[PATH_MAX];
static char pty_name[PATH_MAX];
static volatile sig_atomic_t stop_signal;

/* bytes from the host waiting for room in the UART's receive FIFO */
static uint8_t inq[4096];
static size_t inq_head, inq_len;
static int last_in = 0, last_out = 0;

/* last emitted state */
static uint8_t shown_last[MAX_CHAIN][8];
static uint8_t intens_last[MAX_CHAIN];
static uint8_t on_last[MAX_CHAIN];
static int buzzer_last = -1;

static uint64_t next_rand(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int chance(double p)
{
	return p > 0 && (double)(next_rand() >> 11) / (double)(1ull << 53) < p;
}

static uint64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static unsigned long long t_us(void)
{
	return (unsigned long long)(avr->cycle / (avr->frequency / 1000000));
}

/* decode segments back into a character for the "text" field */
static char seg_char(uint8_t s)
{
	static const char pref[] = " 0123456789-_=?ABCDEFGHIJLNOPQRSTUYbcdhinortu'";
	s &= 0x7F;
	for (const char *p = pref; *p; p++)
		if (font_segments((uint8_t)*p) == s)
			return *p;
	return '#';
}

static void emit_display(int force)
{
	uint8_t shown[MAX_CHAIN][8];
	int changed = force || buzzer != buzzer_last;
	for (int k = 0; k < chain.n; k++) {
		max7219_shown(&chain, k, shown[k]);
		if (memcmp(shown[k], shown_last[k], 8) || chain.chip[k].intensity != intens_last[k] ||
		    chain.chip[k].on != on_last[k])
			changed = 1;
	}
	if (!changed)
		return;
	printf("{\"event\":\"display\",\"t_us\":%llu,\"buzzer\":%s,\"displays\":[", t_us(), buzzer ? "true" : "false");
	for (int k = 0; k < chain.n; k++) {
		char text[17];
		int n = 0;
		for (int i = 0; i < 8; i++) {
			text[n++] = seg_char(shown[k][i]);
			if (shown[k][i] & 0x80)
				text[n++] = '.';
		}
		text[n] = 0;
		printf("%s{\"text\":\"%s\",\"segs\":\"", k ? "," : "", text);
		for (int i = 0; i < 8; i++)
			printf("%02x", shown[k][i]);
		printf("\",\"on\":%s,\"intensity\":%d}", chain.chip[k].on ? "true" : "false", chain.chip[k].intensity);
		memcpy(shown_last[k], shown[k], 8);
		intens_last[k] = chain.chip[k].intensity;
		on_last[k] = chain.chip[k].on;
	}
	printf("]}\n");
	buzzer_last = buzzer;
}

static void emit_fault(int stall_ms)
{
	printf("{\"event\":\"fault\",\"noise\":%g,\"drop\":%g,\"stall_ms\":%d}\n", noise_p, drop_p, stall_ms);
}

/* ---- IRQ hooks ---- */

static void spi_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	max7219_byte(&chain, (uint8_t)value);
}

static void cs_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	int was_low = chain.load_low;
	max7219_load(&chain, value != 0);
	if (was_low && value)
		emit_display(0);
}

static void buzzer_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	if ((int)(value != 0) != buzzer) {
		buzzer = value != 0;
		emit_display(0);
	}
}

static void pty_write_byte(uint8_t b)
{
	if (write(master_fd, &b, 1) < 0 && errno != EAGAIN && errno != EIO)
		fprintf(stderr, "scoreboard-sim: pty write: %s\n", strerror(errno));
}

static void uart_out_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)param;
	uint8_t b = (uint8_t)value;
	if (trace_frames && b == 0 && last_out != 0)
		printf("{\"event\":\"frame\",\"dir\":\"out\",\"t_us\":%llu}\n", t_us());
	if (getenv("SIM_TRACE_BYTES")) fprintf(stderr, "out %02x %llu\n", b, t_us());
	last_out = b;
	if (chance(drop_p))
		return;
	pty_write_byte(b);
	if (chance(noise_p))
		pty_write_byte((uint8_t)next_rand());
}

static avr_irq_t *uart_in_irq;

static void flush_inq(void)
{
	if (avr->cycle < BOOT_CYCLES)
		return;
	while (xon && inq_len) {
		uint8_t b = inq[inq_head];
		inq_head = (inq_head + 1) % sizeof inq;
		inq_len--;
		if (trace_frames && b != 0 && last_in == 0)
			printf("{\"event\":\"frame\",\"dir\":\"in\",\"t_us\":%llu}\n", t_us());
		if (getenv("SIM_TRACE_BYTES")) fprintf(stderr, "in %02x %llu\n", b, t_us());
		last_in = b;
		avr_raise_irq(uart_in_irq, b);
	}
}

static void xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)value; (void)param;
	xon = 1;
	flush_inq();
}

static void xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
	(void)irq; (void)value; (void)param;
	xon = 0;
}

static void inq_push(uint8_t b)
{
	if (inq_len == sizeof inq)
		return; /* like a full USB-serial buffer: the byte is lost */
	inq[(inq_head + inq_len) % sizeof inq] = b;
	inq_len++;
}

/* poll_pty reads what the host sent; with discard (a stall) it is lost */
static void poll_pty(int discard)
{
	uint8_t buf[256];
	for (;;) {
		ssize_t n = read(master_fd, buf, sizeof buf);
		if (n <= 0)
			return;
		if (discard)
			continue;
		for (ssize_t i = 0; i < n; i++) {
			if (chance(drop_p))
				continue;
			inq_push(buf[i]);
			if (chance(noise_p))
				inq_push((uint8_t)next_rand());
		}
	}
}

static int use_stdin = 1;
static uint64_t stall_until;
static char cmdline[256];
static size_t cmdlen;

static void run_command(const char *line)
{
	double v;
	int ms;
	if (sscanf(line, "noise %lf", &v) == 1) {
		noise_p = v;
		emit_fault(0);
	} else if (sscanf(line, "drop %lf", &v) == 1) {
		drop_p = v;
		emit_fault(0);
	} else if (sscanf(line, "stall %d", &ms) == 1) {
		stall_until = now_ms() + (uint64_t)ms;
		emit_fault(ms);
	} else if (strncmp(line, "quit", 4) == 0) {
		stop_signal = 1;
	} else if (line[0]) {
		fprintf(stderr, "scoreboard-sim: unknown command %s (want noise P, drop P, stall MS or quit)\n", line);
	}
}

/* returns 0 when stdin closed */
static int poll_stdin(void)
{
	if (!use_stdin)
		return 1;
	struct pollfd p = {.fd = 0, .events = POLLIN};
	while (poll(&p, 1, 0) > 0) {
		char c;
		ssize_t n = read(0, &c, 1);
		if (n <= 0)
			return 0;
		if (c == '\n' || cmdlen == sizeof cmdline - 1) {
			cmdline[cmdlen] = 0;
			run_command(cmdline);
			cmdlen = 0;
		} else {
			cmdline[cmdlen++] = c;
		}
	}
	return 1;
}

static void on_signal(int sig)
{
	stop_signal = sig;
}

static void cleanup_link(void)
{
	char target[PATH_MAX];
	if (!link_path[0])
		return;
	ssize_t n = readlink(link_path, target, sizeof target - 1);
	if (n > 0) {
		target[n] = 0;
		if (strcmp(target, pty_name) == 0)
			unlink(link_path);
	}
}

static void usage(FILE *f)
{
	fprintf(f, "usage: scoreboard-sim [-f firmware.elf] [-l link] [-d displays 1..4]\n"
	           "       [--noise P] [--drop P] [--stall MS] [--stall-at MS] [--seed N]\n"
	           "       [--trace-frames] [--no-stdin]\n"
	           "P is a probability per byte in 0..1; MS milliseconds of wall time.\n");
}

static int parse_prob(const char *name, const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (*s == 0 || *end != 0 || v < 0 || v > 1) {
		fprintf(stderr, "scoreboard-sim: --%s %s: want a probability 0..1\n", name, s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_int(const char *name, const char *s, long lo, long hi, long *out)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (*s == 0 || *end != 0 || v < lo || v > hi) {
		fprintf(stderr, "scoreboard-sim: --%s %s: want an integer %ld..%ld\n", name, s, lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

int main(int argc, char **argv)
{
	char firmware[PATH_MAX] = "";
	long displays = 4, stall_ms = 0, stall_at = 0, seed = 0;
	static const struct option opts[] = {
		{"firmware", required_argument, 0, 'f'},
		{"link", required_argument, 0, 'l'},
		{"displays", required_argument, 0, 'd'},
		{"noise", required_argument, 0, 'n'},
		{"drop", required_argument, 0, 'x'},
		{"stall", required_argument, 0, 's'},
		{"stall-at", required_argument, 0, 'a'},
		{"seed", required_argument, 0, 'r'},
		{"trace-frames", no_argument, 0, 't'},
		{"no-stdin", no_argument, 0, 'i'},
		{"help", no_argument, 0, 'h'},
		{0, 0, 0, 0},
	};
	int o;
	while ((o = getopt_long(argc, argv, "f:l:d:h", opts, NULL)) != -1) {
		switch (o) {
		case 'f': snprintf(firmware, sizeof firmware, "%s", optarg); break;
		case 'l': snprintf(link_path, sizeof link_path, "%s", optarg); break;
		case 'd': if (parse_int("displays", optarg, 1, MAX_CHAIN, &displays)) return 2; break;
		case 'n': if (parse_prob("noise", optarg, &noise_p)) return 2; break;
		case 'x': if (parse_prob("drop", optarg, &drop_p)) return 2; break;
		case 's': if (parse_int("stall", optarg, 0, 600000, &stall_ms)) return 2; break;
		case 'a': if (parse_int("stall-at", optarg, 0, 3600000, &stall_at)) return 2; break;
		case 'r': if (parse_int("seed", optarg, 0, LONG_MAX, &seed)) return 2; break;
		case 't': trace_frames = 1; break;
		case 'i': use_stdin = 0; break;
		case 'h': usage(stdout); return 0;
		default: usage(stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "scoreboard-sim: unexpected argument %s\n", argv[optind]);
		usage(stderr);
		return 2;
	}
	if (!firmware[0]) {
		/* default: scoreboard.elf next to this program */
		char self[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
		if (n <= 0) {
			fprintf(stderr, "scoreboard-sim: no -f given and cannot find myself\n");
			return 2;
		}
		self[n] = 0;
		snprintf(firmware, sizeof firmware, "%s/scoreboard.elf", dirname(self));
	}
	if (seed)
		rng ^= (uint64_t)seed * 0x2545F4914F6CDD1Dull;
	setvbuf(stdout, NULL, _IOLBF, 0);
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);

	/* simavr chats on stdout while loading; stdout is for JSON only */
	fflush(stdout);
	int saved_stdout = dup(1);
	dup2(2, 1);
	elf_firmware_t fw;
	memset(&fw, 0, sizeof fw);
	int loaded = access(firmware, R_OK) == 0 && elf_read_firmware(firmware, &fw) == 0;
	if (!loaded) {
		fprintf(stderr, "scoreboard-sim: cannot load firmware %s: %s (build it with make -C firmware)\n",
		        firmware, errno ? strerror(errno) : "not an AVR ELF");
		return 1;
	}
	if (!fw.mmcu[0])
		strcpy(fw.mmcu, "atmega328p");
	if (!fw.frequency)
		fw.frequency = 16000000;
	avr = avr_make_mcu_by_name(fw.mmcu);
	if (!avr) {
		fprintf(stderr, "scoreboard-sim: simavr does not know MCU %s\n", fw.mmcu);
		return 1;
	}
	avr_init(avr);
	avr->log = LOG_ERROR;
	avr_load_firmware(avr, &fw);
	fflush(stdout);
	dup2(saved_stdout, 1);
	close(saved_stdout);

	max7219_init(&chain, (int)displays);

	/* UART0 <-> pty */
	uint32_t flags = 0;
	avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
	flags &= ~(uint32_t)(AVR_UART_FLAG_STDIO | AVR_UART_FLAG_POLL_SLEEP);
	avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
	uart_in_irq = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), xon_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), xoff_hook, NULL);
	/* SPI and the MAX7219 LOAD line (PB2), buzzer (PB0) */
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_out_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN2), cs_hook, NULL);
	avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), IOPORT_IRQ_PIN0), buzzer_hook, NULL);

	if (openpty(&master_fd, &slave_fd, pty_name, NULL, NULL) < 0) {
		fprintf(stderr, "scoreboard-sim: cannot create a pty: %s\n", strerror(errno));
		return 1;
	}
	struct termios tio;
	tcgetattr(slave_fd, &tio);
	cfmakeraw(&tio);
	tcsetattr(slave_fd, TCSANOW, &tio);
	fcntl(master_fd, F_SETFL, fcntl(master_fd, F_GETFL) | O_NONBLOCK);
	/* slave_fd stays open so the master never sees a hang-up while no host
	 * has the port open */
	if (link_path[0]) {
		char tmp[PATH_MAX + 16];
		snprintf(tmp, sizeof tmp, "%s.%d", link_path, (int)getpid());
		unlink(tmp);
		if (symlink(pty_name, tmp) != 0 || rename(tmp, link_path) != 0) {
			fprintf(stderr, "scoreboard-sim: cannot make link %s -> %s: %s\n", link_path, pty_name, strerror(errno));
			unlink(tmp);
			return 1;
		}
	}
	printf("{\"event\":\"ready\",\"pty\":\"%s\",\"link\":\"%s\",\"firmware\":\"%s\",\"displays\":%ld}\n",
	       pty_name, link_path, firmware, displays);
	fprintf(stderr, "scoreboard-sim: %s on %s%s%s\n", fw.mmcu, pty_name, link_path[0] ? " linked at " : "", link_path);
	if (noise_p > 0 || drop_p > 0)
		emit_fault(0);

	uint64_t start = now_ms();
	int stall_pending = stall_ms > 0;
	if (stall_pending && stall_at == 0) {
		stall_until = start + (uint64_t)stall_ms;
		stall_pending = 0;
		emit_fault((int)stall_ms);
	}
	avr_cycle_count_t last_poll = 0;
	const char *reason = "signal";
	while (!stop_signal) {
		uint64_t now = 0;
		if (stall_pending || stall_until) {
			now = now_ms();
			if (stall_pending && now >= start + (uint64_t)stall_at) {
				stall_pending = 0;
				stall_until = now + (uint64_t)stall_ms;
				emit_fault((int)stall_ms);
			}
			if (stall_until && now < stall_until) {
				poll_pty(1);
				if (!poll_stdin()) {
					reason = "stdin closed";
					break;
				}
				usleep(1000);
				continue;
			}
			stall_until = 0;
		}
		int state = avr_run(avr);
		if (state == cpu_Done || state == cpu_Crashed) {
			reason = state == cpu_Done ? "firmware stopped" : "firmware crashed";
			break;
		}
		if (avr->cycle - last_poll >= POLL_CYCLES || avr->state == cpu_Sleeping) {
			last_poll = avr->cycle;
			poll_pty(0);
			flush_inq();
			if (!poll_stdin()) {
				reason = "stdin closed";
				break;
			}
		}
	}
	printf("{\"event\":\"exit\",\"reason\":\"%s\"}\n", reason);
	cleanup_link();
	avr_terminate(avr);
	return strcmp(reason, "firmware crashed") == 0 ? 1 : 0;
}
