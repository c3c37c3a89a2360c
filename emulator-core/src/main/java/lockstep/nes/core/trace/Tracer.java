package lockstep.nes.core.trace;

import java.util.function.Consumer;

import lockstep.nes.core.Console;

/**
 * Runs a console instruction by instruction, observing each instruction before it runs. The
 * instructions run as they always do (whole or cycle by cycle, DMA included): tracing reads
 * the machine between instructions and changes nothing, so a traced run and an untraced run
 * reach the same states.
 */
public final class Tracer {
    private final Console console;
    private final Consumer<Console> beforeFrame;
    private int dotOffset;

    /**
     * @param beforeFrame called with the console when a new frame begins (to apply that
     *                    frame's input), before its first instruction runs
     */
    public Tracer(Console console, Consumer<Console> beforeFrame) {
        this.console = console;
        this.beforeFrame = beforeFrame;
    }

    /**
     * Starts at {@code pc} as nestest's automation mode does: the reset sequence runs, then the
     * CPU continues at {@code pc} with the registers reset left. The PPU column then follows
     * nestest's log, which counts dots from the CPU's first cycle, three per cycle (this
     * engine's PPU starts a few dots ahead of the CPU at power, as one of the alignments a
     * console can power up in).
     */
    public void startAt(int pc) {
        finishInstruction();
        console.cpu().jump(pc);
        dotOffset = console.ppu().scanline() * 341 + console.ppu().dot() - (int) (3 * console.cycles());
    }

    /** Runs (untraced) to the first instruction start at or after CPU cycle {@code cycle}. */
    public void skipToCycle(long cycle) {
        finishInstruction();
        while (console.cycles() < cycle) {
            step();
        }
    }

    /** Runs (untraced) to the first instruction start of frame {@code frame} or later. */
    public void skipToFrame(long frame) {
        finishInstruction();
        while (console.frame() < frame) {
            step();
        }
    }

    /** Traces {@code count} instructions, giving each line to {@code out} before it runs. */
    public void trace(long count, Consumer<TraceLine> out) {
        finishInstruction();
        for (long i = 0; i < count; i++) {
            out.accept(TraceLine.of(console, dotOffset));
            step();
        }
    }

    /** Runs one instruction, applying a new frame's input first. */
    private void step() {
        long frame = console.frame();
        console.runInstruction();
        if (console.frame() != frame) {
            beforeFrame.accept(console);
        }
    }

    /** Completes a partly run instruction (power-on starts inside the reset sequence). */
    private void finishInstruction() {
        if (!console.cpu().atInstructionStart()) {
            console.runInstruction();
        }
    }
}
