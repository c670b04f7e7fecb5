package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/blueprints-companion/blueprints/hardware"
	"github.com/spf13/cobra"
	"github.com/spf13/viper"
)

func init() { subcommands = append(subcommands, newScoreboardCmd) }

// newScoreboardCmd is `blueprints scoreboard`: list ports, light every
// segment, show scores, on the LED board (serial) or in the terminal
// (--virtual).
func newScoreboardCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "scoreboard",
		Short: "Drive the LED scoreboard (serial, or --virtual in the terminal)",
		Long: `Drive the LED scoreboard: an ATmega328P board with one MAX7219 8-digit
display per player on a USB serial line (see firmware/README.md), or with
--virtual the same displays drawn in the terminal.

The board is found by --port PATH or --vid-pid VID:PID (also from
BLUEPRINTS_PORT, BLUEPRINTS_VID_PID or the config file). Without hardware,
run the simulated board (make -C firmware, then
firmware/build/scoreboard-sim -l /tmp/scoreboard) and use --port /tmp/scoreboard.`,
		Args: cobra.NoArgs,
	}
	cmd.AddCommand(newScoreboardListCmd(v), newScoreboardTestCmd(v), newScoreboardShowCmd(v))
	return cmd
}

// boardFlags adds the flags that choose a scoreboard.
func boardFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.String("port", "", "serial port path of the board (e.g. /dev/ttyACM0, or the simulated board's link)")
	f.String("vid-pid", "", "find the board by USB id VID:PID in hex (e.g. 2341:0043)")
	f.Bool("virtual", false, "draw the displays in the terminal instead of driving a board")
	f.Int("displays", 4, "number of displays of the virtual scoreboard (1..4)")
	f.Duration("timeout", 10*time.Second, "how long to wait for the board")
}

// openBoard opens the scoreboard the flags name. The caller closes it.
func openBoard(ctx context.Context, v *viper.Viper, name string, out io.Writer) (hardware.Scoreboard, int, error) {
	if v.GetBool("virtual") {
		n := v.GetInt("displays")
		if n < 1 || n > hardware.MaxDisplays {
			return nil, 0, &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard %s: --displays %d: want 1..%d", name, n, hardware.MaxDisplays)}
		}
		return hardware.NewVirtual(out, n), n, nil
	}
	port, vidpid := v.GetString("port"), v.GetString("vid-pid")
	if port == "" && vidpid == "" {
		return nil, 0, &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard %s: no board given: use --port PATH, --vid-pid VID:PID or --virtual", name)}
	}
	if vidpid != "" {
		if _, _, err := hardware.ParseVIDPID(vidpid); err != nil {
			return nil, 0, &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard %s: --vid-pid: %v", name, err)}
		}
	}
	timeout := v.GetDuration("timeout")
	if timeout <= 0 {
		return nil, 0, &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard %s: --timeout %v: want a positive duration", name, timeout)}
	}
	// (--timeout bounds the handshake alone: a deadline of the same time on
	// ctx too hid the handshake's own message, such as bytes arriving that
	// are not scoreboard frames, behind "context deadline exceeded")
	s, err := hardware.OpenSerial(ctx, hardware.SerialOptions{Port: port, VIDPID: vidpid, HandshakeTimeout: timeout})
	if err != nil {
		return nil, 0, &exitError{code: 1, msg: fmt.Sprintf("blueprints scoreboard %s: %v", name, err)}
	}
	return s, s.Displays(), nil
}

// linkFailed tells errors after which the serial driver keeps the state and
// reconnects by itself.
func linkFailed(err error) bool {
	return errors.Is(err, hardware.ErrNoAck) || errors.Is(err, hardware.ErrNotConnected)
}

// persist runs f, giving the board up to --timeout to take the change,
// and, when the link failed, waits (up to --timeout again) for the driver
// to reconnect and push its state, then runs f again. (Until the
// fifty-third session f itself could wait for ever: a board restarting
// over and over never confirms anything.)
func persist(ctx context.Context, v *viper.Viper, sb hardware.Scoreboard, f func(context.Context) error) error {
	timeout := v.GetDuration("timeout")
	fctx, fcancel := context.WithTimeout(ctx, timeout)
	err := f(fctx)
	fcancel()
	s, ok := sb.(*hardware.Serial)
	if err != nil && ok && linkFailed(err) {
		wctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		for linkFailed(err) {
			if werr := s.WaitSynced(wctx); werr != nil {
				break
			}
			err = f(wctx)
		}
	}
	if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
		return fmt.Errorf("the board did not take it within --timeout %v: %w", timeout, err)
	}
	return err
}

func boardErr(name string, err error) error {
	if errors.Is(err, context.Canceled) {
		return &exitError{code: 130, msg: fmt.Sprintf("blueprints scoreboard %s: interrupted", name)}
	}
	return &exitError{code: 1, msg: fmt.Sprintf("blueprints scoreboard %s: %v", name, err)}
}

func newScoreboardListCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List serial ports with their USB VID:PID",
		Long: `List the serial ports of this machine with their USB VID:PID, serial number
and product, to find the scoreboard for --port or --vid-pid. Pseudo-terminals
(the simulated board) are not listed. With --virtual, lists the virtual
scoreboard only.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if v.GetBool("virtual") {
				n := v.GetInt("displays")
				if n < 1 || n > hardware.MaxDisplays {
					return &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard list: --displays %d: want 1..%d", n, hardware.MaxDisplays)}
				}
				fmt.Fprintf(out, "virtual\tterminal scoreboard, %d displays\n", n)
				return nil
			}
			ports, err := hardware.ListPorts()
			if err != nil {
				return &exitError{code: 1, msg: "blueprints scoreboard list: " + err.Error()}
			}
			if len(ports) == 0 {
				fmt.Fprintln(out, "no serial ports found (a simulated board's pty is not listed: give its path to --port)")
				return nil
			}
			tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "PORT\tVID:PID\tSERIAL\tPRODUCT")
			for _, p := range ports {
				id := "-"
				if p.USB {
					id = p.VID + ":" + p.PID
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, id, dash(p.SerialNumber), dash(p.Product))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().Bool("virtual", false, "list the virtual scoreboard")
	cmd.Flags().Int("displays", 4, "number of displays of the virtual scoreboard")
	return cmd
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func newScoreboardTestCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "test",
		Short: "Light every segment of every display and beep once",
		Long: `Light every segment (and decimal point) of every display at full brightness,
blink the first display with one beep, hold for --hold, then clear.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			hold := v.GetDuration("hold")
			if hold < 0 {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard test: --hold %v: want 0 or more", hold)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			sb, n, err := openBoard(ctx, v, "test", cmd.OutOrStdout())
			if err != nil {
				return err
			}
			defer sb.Close()
			if err := persist(ctx, v, sb, func(ctx context.Context) error { return sb.SetBrightness(ctx, hardware.MaxBrightness) }); err != nil {
				return boardErr("test", err)
			}
			for p := 0; p < n; p++ {
				if err := persist(ctx, v, sb, func(ctx context.Context) error { return sb.SetText(ctx, p, "8.8.8.8.8.8.8.8.") }); err != nil {
					return boardErr("test", err)
				}
			}
			if err := persist(ctx, v, sb, func(ctx context.Context) error { return sb.Alert(ctx, 0, 200*time.Millisecond) }); err != nil {
				return boardErr("test", err)
			}
			select {
			case <-time.After(hold):
			case <-ctx.Done():
			}
			if err := persist(context.WithoutCancel(ctx), v, sb, sb.Clear); err != nil {
				return boardErr("test", err)
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "scoreboard test: %d displays lit, one beep, cleared\n", n)
			return nil
		},
	}
	boardFlags(cmd)
	cmd.Flags().Duration("hold", 3*time.Second, "how long to keep every segment lit")
	return cmd
}

func newScoreboardShowCmd(v *viper.Viper) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show scores on the displays, e.g. --scores 12,23,7,0",
		Long: `Show one score per display, player 1 first, e.g. --scores 12,23,7,0 (each
-9999999..99999999). The board keeps showing them after the command ends.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := bindFlags(v, cmd); err != nil {
				return err
			}
			scores, err := parseScores(v.GetString("scores"))
			if err != nil {
				return &exitError{code: 2, msg: "blueprints scoreboard show: --scores: " + err.Error()}
			}
			level := v.GetInt("brightness")
			if level < -1 || level > hardware.MaxBrightness {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard show: --brightness %d: want 0..%d (or -1 to leave it)", level, hardware.MaxBrightness)}
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			sb, n, err := openBoard(ctx, v, "show", cmd.OutOrStdout())
			if err != nil {
				return err
			}
			defer sb.Close()
			if len(scores) > n {
				return &exitError{code: 2, msg: fmt.Sprintf("blueprints scoreboard show: --scores: %d scores but the board has %d displays", len(scores), n)}
			}
			if level >= 0 {
				if err := persist(ctx, v, sb, func(ctx context.Context) error { return sb.SetBrightness(ctx, level) }); err != nil {
					return boardErr("show", err)
				}
			}
			for p, score := range scores {
				if err := persist(ctx, v, sb, func(ctx context.Context) error { return sb.SetScore(ctx, p, score) }); err != nil {
					return boardErr("show", err)
				}
			}
			return nil
		},
	}
	boardFlags(cmd)
	cmd.Flags().String("scores", "", "comma-separated scores, player 1 first (required)")
	cmd.Flags().Int("brightness", -1, "brightness 0..15 (-1 leaves it)")
	return cmd
}

// parseScores reads "12,23,7,0".
func parseScores(s string) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no scores given, e.g. --scores 12,23,7,0")
	}
	parts := strings.Split(s, ",")
	if len(parts) > hardware.MaxDisplays {
		return nil, fmt.Errorf("%q has %d scores, at most %d", s, len(parts), hardware.MaxDisplays)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, fmt.Errorf("%q: score %d %q is not a whole number", s, i+1, strings.TrimSpace(p))
		}
		if n < -9999999 || n > 99999999 {
			return nil, fmt.Errorf("%q: score %d is %d, which does not fit 8 digits (-9999999..99999999)", s, i+1, n)
		}
		out[i] = n
	}
	return out, nil
}
