package lockstep.nes.core;

import lockstep.nes.core.cart.Mapper;
import lockstep.nes.ppu.Ppu;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.NotState;

/**
 * Runs the console's PPU up to the master clock: one PPU dot every 4 master clocks (5 on PAL and
 * Dendy), the PPU one master clock behind the CPU (the power-on alignment that the hardware tests expect).
 *
 * <p>When the board never looks at the PPU's bus ({@link lockstep.nes.ppu.PpuBus#direct} is
 * non-null), nothing outside the PPU can see its progress between accesses that observe it, so
 * the PPU is caught up lazily: before every PPU register or board access, when it reaches a dot
 * that changes /NMI or the frame counter ({@link #isDue}), and before anyone looks at it. Every
 * observation is the same as with the PPU stepped in lockstep.
 *
 * <p>Boards that watch the PPU's bus (A12 counters, CHR latches) may opt in too
 * ({@link Mapper#lazyPpuSafe}): they time bus events through {@link Mapper.BusClock}, which
 * gives each PPU access the CPU cycle of its dot however late the PPU performs it
 * ({@link #busTime}), and the PPU is also caught up before the board could change its /IRQ
 * ({@link Mapper#dotsToBoardEvent}, asked again after every access that could change it). Other
 * bus-watching boards have the PPU stepped with the CPU, one or two dots at a time.
 */
final class PpuCatchUp {
    static final int PPU_OFFSET = 1;

    // The region's dot (fixed wiring, not state): master clocks per dot (4 NTSC, 5 PAL and
    // Dendy; a power of two is a shift, ppuShift >= 0), dots in a frame without the odd-frame
    // skip, and the pre-render line's dot 339 (where NTSC's skip is).
    private final int ppuDivider;
    private final int ppuShift;
    private final int frameDots;
    private final int skipDot;
    /**
     * The PPU clock at power-on: 0, or the master clocks by which the region's PPU lags more
     * than {@link #PPU_OFFSET} ({@link Region#ppuLag}).
     */
    private final int powerClock;

    private final Ppu ppu;
    private final Mapper mapper;
    /** Counts a change of the PPU (and of a board watching its bus) at every catch-up. */
    private final ChangeCounter changes;

    /** True when the PPU may run behind (see the class comment). Fixed wiring, not state. */
    private final boolean lazy;
    /** True when the board watches the PPU bus: PPU runs keep the time of each dot (runWatched). */
    private final boolean watched;
    /** True when the deadline includes the board's bound ({@link Mapper#dotsToBoardEvent}). */
    private final boolean boardBound;

    /** The master clock (less the PPU offset) the PPU has run to: the console's {@code ppuClock}. */
    private long clock;
    // The PPU run in progress for a bus-watching board (bookkeeping of runWatched, not state):
    // its first dot's position (scanline * 341 + dot before it) and the PPU clock before it.
    @NotState("bookkeeping of a PPU run in progress (runWatched); false between cycles")
    private boolean inRun;
    @NotState("bookkeeping of a PPU run in progress (runWatched)")
    private int runStartPosition;
    @NotState("bookkeeping of a PPU run in progress (runWatched)")
    private long runStartClock;
    /**
     * The master clock (less the PPU offset) at which the PPU must next be caught up. Derived
     * from the PPU's position (a cache, not state); Long.MIN_VALUE forces a catch-up.
     */
    @NotState("catch-up deadline, derived from the PPU's position and the board")
    private long deadline = Long.MIN_VALUE;
    /**
     * The PPU's own part of {@link #deadline} (its next event, {@link Ppu#dotsToEvent}) as of
     * the last catch-up: no register access changes it, so an access that may change the board's
     * bound combines it with the board's new bound at once (a cache, not state).
     */
    @NotState("catch-up deadline, derived from the PPU's position")
    private long eventDeadline;

    /** Told whenever {@link #deadline} is set (the console's quiet-cycle bound keys on it). */
    private final Runnable deadlineListener;

    /**
     * {@code eager}: step the PPU with the CPU whatever the board (the reference for tests);
     * {@code deadlineListener} is told whenever the deadline is set.
     */
    PpuCatchUp(Ppu ppu, Mapper mapper, ChangeCounter changes, boolean eager, Region region,
               Runnable deadlineListener) {
        this.deadlineListener = deadlineListener;
        this.ppu = ppu;
        this.mapper = mapper;
        this.changes = changes;
        this.ppuDivider = region.ppuDivider;
        this.ppuShift = Integer.bitCount(ppuDivider) == 1 ? Integer.numberOfTrailingZeros(ppuDivider) : -1;
        this.frameDots = region.frameDots();
        this.skipDot = region.preRenderLine * 341 + 339;
        this.powerClock = region.ppuLag - PPU_OFFSET;
        final boolean direct = mapper.direct() != null;
        this.watched = !direct;
        // A bus-watching board's bound (Mapper#dotsToBoardEvent) counts NTSC frames: in the
        // other regions such a board has its PPU stepped with the CPU.
        this.lazy = !eager && (direct || (mapper.lazyPpuSafe() && region == Region.NTSC));
        this.boardBound = lazy && !direct;
    }

    private void setDeadline(long clock) {
        deadline = clock;
        deadlineListener.run();
    }

    /** True when the PPU may run behind the CPU. */
    boolean lazy() {
        return lazy;
    }

    /** True when the board's bound is part of the deadline (a lazy PPU on a bus-watching board). */
    boolean boardBound() {
        return boardBound;
    }

    long clock() {
        return clock;
    }

    /** Sets the PPU clock (a state load). */
    void clock(long value) {
        clock = value;
    }

    /** Power-on: the PPU at its power-on clock, caught up at the next cycle. */
    void power() {
        clock = powerClock;
        setDeadline(Long.MIN_VALUE);
    }

    /** Catches the PPU up at the next check, whatever its deadline (after a reset). */
    void expire() {
        setDeadline(Long.MIN_VALUE);
    }

    /**
     * True when the PPU must be caught up before the master clock reaches {@code masterClock}
     * (an eagerly stepped PPU: always).
     */
    boolean isDue(long masterClock) {
        return masterClock - PPU_OFFSET >= deadline;
    }

    /**
     * The first master clock at which {@link #isDue} is true (Long.MIN_VALUE when it is due at
     * once).
     */
    long dueClock() {
        return deadline == Long.MIN_VALUE ? Long.MIN_VALUE : deadline + PPU_OFFSET;
    }

    /** The dots the PPU has yet to run to reach {@code masterClock} (less its offset). */
    long dotsBehind(long masterClock) {
        final long target = masterClock - PPU_OFFSET;
        return ppuShift >= 0 ? (target - clock) >> ppuShift : (target - clock) / ppuDivider;
    }

    /** Runs the PPU up to {@code masterClock} (less its offset). */
    void sync(long masterClock) {
        changes.bump(); // the PPU, and a board watching its bus, may change

        final long target = masterClock - PPU_OFFSET;
        final long dots = ppuShift >= 0 ? (target - clock) >> ppuShift : (target - clock) / ppuDivider;
        if (dots > 0) {
            if (watched) {
                runWatched(dots);
            } else {
                clock += dots * ppuDivider;
                ppu.run((int) dots);
            }
        }
        if (lazy) {
            refreshDeadline();
        }
    }

    /** The clock at which a lazily stepped PPU is next caught up, from where it stands now. */
    void refreshDeadline() {
        if (lazy) {
            final long event = clock + (long) ppu.dotsToEvent() * ppuDivider;
            eventDeadline = event;
            setDeadline(boardBound ? Math.min(event, boardDeadline()) : event);
        }
    }

    /** The clock by which the board's bound ({@link Mapper#dotsToBoardEvent}) says to catch up. */
    private long boardDeadline() {
        return clock + (long) mapper.dotsToBoardEvent(ppu) * ppuDivider;
    }

    /**
     * After a CPU access that may change what the board's bound depends on (a board write, a PPU
     * register write or data read), made with the PPU caught up to it: the board is asked again
     * from there, without another catch-up.
     */
    void boardBoundStale() {
        if (boardBound) {
            setDeadline(Math.min(eventDeadline, boardDeadline()));
        }
    }

    /**
     * Runs {@code dots} dots for a board that watches the PPU bus, noting where each run starts
     * so {@link #busTime} can time the accesses inside it by the PPU's position. A run that
     * starts before the pre-render line's dot 339 stops there, so no run both takes the odd-frame
     * skip and goes on past the end of the frame.
     */
    private void runWatched(long dots) {
        do {
            final int pos = ppu.scanline() * 341 + ppu.dot();
            long k = pos < skipDot ? skipDot - pos : frameDots - pos + skipDot;
            if (k <= 0 || k > dots) {
                k = dots;
            }
            runStartPosition = pos;
            runStartClock = clock;
            clock += k * ppuDivider;
            inRun = true;
            ppu.run((int) k);
            inRun = false;
            dots -= k;
        } while (dots > 0);
    }

    /**
     * The board's clock ({@link Mapper.BusClock#time}): for an access inside a PPU run, the end
     * of its dot (the clock before the run plus 4 per dot from the run's first position to the
     * PPU's present one); otherwise {@code masterClock}.
     */
    long busTime(long masterClock) {
        if (inRun) {
            int elapsed = ppu.scanline() * 341 + ppu.dot() - runStartPosition;
            if (elapsed < 0) {
                elapsed += frameDots;
            }
            return runStartClock + (long) elapsed * ppuDivider;
        }
        return masterClock;
    }
}
