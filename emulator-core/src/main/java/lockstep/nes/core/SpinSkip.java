package lockstep.nes.core;

import java.util.function.IntUnaryOperator;

import lockstep.nes.core.cpu.Cpu;
import lockstep.nes.core.cpu.SpinLoop;

/**
 * The fast path of a spin loop: how many of its coming iterations the console may count on its
 * clocks instead of running them ({@link Console#skipSpin}). A loop whose iteration was only
 * quiet reads (RAM and $8000-$FFFF, no side effects, see Console's bus) and came round to its
 * head ({@link SpinLoop}) repeats until an interrupt line, a PPU or an APU event moves, and
 * those come no sooner than the console's quiet room. Two kinds are counted:
 * <ul>
 * <li>a loop that came round in the same state (waiting for an NMI to change a flag in RAM, or
 *     {@code JMP} to itself): every iteration leaves the state it started from;
 * <li>a countdown, {@code DEX} or {@code DEY} and a {@code BNE} back to it ({@code CA D0 FD},
 *     {@code 88 D0 FD}), that came round with only its register one less: each iteration takes
 *     one from it, so iterations are counted down to a register of 1, and only while its bit 7
 *     (the N flag its decrement left) stays as it is.
 * </ul>
 * The differential contract is SpinSkipTest: the same state after every frame as the engine that
 * runs every iteration. Bookkeeping, not state (see {@link SpinLoop}).
 */
final class SpinSkip {
    private final SpinLoop loop = new SpinLoop();
    /** Reads the CPU's address space without side effects, to check a countdown's code. */
    private final IntUnaryOperator peek;
    private long skipped;

    SpinSkip(IntUnaryOperator peek) {
        this.peek = peek;
    }

    void forget() {
        loop.forget();
    }

    /** The cycles counted so far. */
    long skipped() {
        return skipped;
    }

    /**
     * After a whole instruction at whose end {@code c} is at an opcode fetch at or before the
     * instruction's own address: the loop's length in cycles when it came round with nothing
     * changed but what {@link #count} allows, else 0 ({@link SpinLoop#cameRound}).
     */
    long cameRound(Cpu c, long cycle, long disturbances, int openBus) {
        return loop.cameRound(c, cycle, disturbances, openBus);
    }

    /**
     * The cycles of the iterations of the loop that came round ({@link #cameRound} gave
     * {@code period}) to count, all within {@code quiet} cycles (those surely quiet: before the
     * PPU's deadline and the APU's next event) less one iteration and one instruction; a
     * countdown's register is set to where those iterations leave it. 0 when nothing is counted.
     */
    long count(Cpu c, long period, long quiet) {
        long n = (quiet - period - Cpu.MAX_INSTRUCTION_CYCLES) / period;
        final int change = loop.change();
        if (n > 0 && change != SpinLoop.SAME) {
            final int head = c.pc();
            final boolean x = change == SpinLoop.X_DOWN;
            if (peek.applyAsInt(head) != (x ? 0xCA : 0x88) || peek.applyAsInt(head + 1) != 0xD0
                    || peek.applyAsInt(head + 2) != 0xFD) {
                return 0;
            }
            final int v = x ? c.x() : c.y();
            n = Math.min(n, v >= 0x80 ? v - 0x80 : v - 1);
            if (n > 0) {
                final int left = v - (int) n;
                c.setRegisters(c.a(), x ? left : c.x(), x ? c.y() : left, c.s(), c.p());
            }
        }
        if (n <= 0) {
            return 0;
        }
        skipped += n * period;
        return n * period;
    }
}
