package lockstep.nes.core.apu;

import lockstep.nes.state.NotState;

import static lockstep.nes.state.DigestKeys.*;

import lockstep.nes.core.Dma;
import lockstep.nes.ppu.Region;
import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The 2A03's APU: two pulses, triangle, noise, DMC, the frame counter and the mixer.
 *
 * <p>The model is stepped once per CPU cycle by {@link #step}, at the start of the cycle
 * (before its bus access). Within a cycle the order is: the DMC's delayed $4015 effects, the
 * frame counter (which may clock envelopes, length counters and sweeps and raise the frame
 * IRQ), the length-counter writes of the previous cycle, the channel timers, and finally the
 * mixer, whose output goes to {@link #audio()}.
 *
 * <p>The APU runs behind the CPU and catches up lazily, with the same result as stepping it
 * every cycle: it is caught up ({@link #sync}) before every register access and before anyone
 * looks at it (state, digest, audio, peek), and as the cycle of its next visible event starts
 * ({@link #runTo} at its {@link #deadline}): a frame-counter step (which may raise the frame
 * IRQ), the DMC's next DMA request, or any cycle while a delayed write is pending. So the IRQ
 * line ({@link #irq}) and the DMC's DMA requests are exact every cycle. Catching up runs the
 * cycles in which nothing but timers changes in bulk ({@link #skip}): timer expiries are
 * counted rather than walked, and the mixer's constant output goes to the audio sink as one
 * span; any other cycle runs {@link #step}.
 *
 * <p>A cartridge's sound chip ({@link ExpansionAudio}) is stepped and mixed here, in the same
 * catch-up (docs/design/audio.md).
 */
public final class Apu implements Digestible {
    private static final long S_PULSE1 = DigestKeys.section("pulse1");
    private static final long S_PULSE2 = DigestKeys.section("pulse2");
    private static final long S_TRIANGLE = DigestKeys.section("triangle");
    private static final long S_NOISE = DigestKeys.section("noise");
    private static final long S_DMC = DigestKeys.section("dmc");

    private final Dma dma;
    private final Pulse pulse1 = new Pulse(true);
    private final Pulse pulse2 = new Pulse(false);
    private final Triangle triangle = new Triangle();
    private final Noise noise;
    private final Dmc dmc;
    private final FrameCounter frameCounter;
    /** The CPU's internal data bus as $4015 reads leave it (their bit 5 reads it back). */
    private final InternalBus internalBus = new InternalBus();
    /**
     * The cartridge's sound chip, stepped and mixed with the channels (null for boards without
     * one: then nothing here looks at it). The board owns and describes it.
     */
    @NotState("wiring: the board's sound chip, described by the board")
    private final ExpansionAudio expansion;
    /** The audio sink: an output of the machine, not part of its state. */
    @NotState("audio output")
    private final AudioOutput audio;

    // Digest term cache of the state that changes only on events (see digestTerm()).
    @NotState("digest cache")
    private boolean digestStale = true;
    @NotState("digest cache")
    private long digestCold;
    /**
     * The whole term (cold part, hot fields and the DMC) as it stood when the APU had run through
     * cycle {@link #termDone} with the DMC's cold term at version {@link #termDmcVersion}. The hot
     * fields change only while the APU runs ({@link #done} moves) and everything else only with
     * an event that marks a cold term stale, so the cache holds while neither happened. A cache,
     * not state ({@link #refreshDigest} drops it).
     */
    @NotState("digest cache")
    private long termCache;
    @NotState("digest cache")
    private long termDone = Long.MIN_VALUE;
    @NotState("digest cache")
    private int termDmcVersion;

    // Lazy catch-up (not state: whenever anyone looks, the APU is caught up to the console).
    /** The last CPU cycle (the console's numbering) the APU has been stepped through. */
    @NotState("catch-up position")
    private long done;
    /** The first CPU cycle that must be stepped as it starts; derived from the state. */
    @NotState("catch-up deadline")
    private long deadline;
    /** Told whenever {@link #deadline} is set (the console's quiet-cycle bound keys on it); null: no one. */
    @NotState("wiring: who hears of deadline changes")
    private Runnable deadlineListener;
    /** Test reference: step every cycle as it starts, never in bulk. */
    @NotState("test reference switch")
    private boolean eager;
    /**
     * The last cycle of the quiet span found from the present state (see {@link #quietSpan}),
     * or less than {@link #done} when not known; any change other than {@link #skip} drops it,
     * but a write of the DMC's rate only cuts it ({@link #dmcControlWritten}).
     */
    @NotState("catch-up span cache")
    private long quietUntil = Long.MIN_VALUE;
    /** The mixer's output during that span. */
    @NotState("catch-up span cache")
    private int quietLevel;
    /**
     * {@code frameIrq || dmc.irqFlag} (a cache, not state): the console polls it every cycle, so
     * it is one field read; set again wherever either flag may have changed ({@link #changed}
     * and the end of a catch-up that stepped).
     */
    @NotState("IRQ line cache (frameIrq || dmc.irqFlag, set after every change)")
    private boolean irqLine;

    /**
     * Counts this APU's changes for the lockstep check (the console's counter once wired): every
     * catch-up and every {@link #changed} event, which all other changes go through.
     */
    private ChangeCounter changes = new ChangeCounter();

    /** An NTSC (2A03) APU. */
    public Apu(Dma dma) {
        this(dma, Region.NTSC, null);
    }

    /** An NTSC APU that also steps and mixes {@code expansion}, a cartridge's sound chip (null: none). */
    public Apu(Dma dma, ExpansionAudio expansion) {
        this(dma, Region.NTSC, expansion);
    }

    /** The APU of {@code region}'s console (its period tables: {@link ApuPeriods}). */
    public Apu(Dma dma, Region region) {
        this(dma, region, null);
    }

    /**
     * The APU of {@code region}'s console that also steps and mixes {@code expansion}, a
     * cartridge's sound chip (null: none).
     */
    public Apu(Dma dma, Region region, ExpansionAudio expansion) {
        this.dma = dma;
        this.noise = new Noise(region);
        this.frameCounter = new FrameCounter(region);
        this.dmc = new Dmc(dma, region);
        this.audio = new AudioOutput(AudioOutput.DEFAULT_RATE, this, region.masterHzNum,
                region.masterHzDen * region.cpuDivider);
        this.expansion = expansion;
        if (expansion != null) {
            expansion.attach(this);
        }
        power();
    }

    public void power() {
        sync();
        digestStale = true;
        pulse1.power();
        pulse2.power();
        triangle.power();
        noise.power();
        dmc.power();
        frameCounter.power();
        internalBus.power();
        done = dma.cpuCycle();
        changed();
    }

    /** Soft reset: channels silenced ($4015 = 0), the frame counter restarts in its mode. */
    public void reset() {
        sync();
        digestStale = true;
        pulse1.length.setEnabled(false);
        pulse2.length.setEnabled(false);
        // The triangle is disabled too, but its length counter keeps its value.
        triangle.length.enabled = false;
        triangle.resetPhase();
        noise.length.setEnabled(false);
        pulse1.length.halt = false;
        pulse2.length.halt = false;
        noise.length.halt = false;
        pulse1.length.writeHalt(false);
        pulse2.length.writeHalt(false);
        noise.length.writeHalt(false);
        dmc.reset();
        frameCounter.reset();
        changed();
    }

    /**
     * CPU cycle {@code cycle} starts (before its bus access): the APU is caught up through it
     * when that cycle has a visible event, and otherwise left behind.
     */
    public void runTo(long cycle) {
        if (cycle >= deadline) {
            catchUp(cycle);
        }
    }

    /**
     * The first CPU cycle whose start may have a visible event (a frame-counter step, a DMC DMA
     * request, a delayed write): no DMC DMA request comes before it unless a register write
     * changes the APU first.
     */
    public long nextEventCycle() {
        return deadline;
    }

    /** Has {@code listener} told whenever {@link #nextEventCycle} may have moved (null: no one). */
    public void onDeadlineSet(Runnable listener) {
        deadlineListener = listener;
    }

    private void setDeadline(long cycle) {
        deadline = cycle;
        final Runnable l = deadlineListener;
        if (l != null) {
            l.run();
        }
    }

    /**
     * Counts this APU's changes in {@code counter} (see {@link ChangeCounter}): the console gives
     * it a counter of its own that also counts into the shared one, so {@link #changeCount}
     * moves with this APU's changes alone.
     */
    public void trackChanges(ChangeCounter counter) {
        changes = counter;
    }

    /** This APU's changes so far, catch-ups included (see {@link #trackChanges}). */
    public long changeCount() {
        return changes.count();
    }

    /** Catches up to the console's present cycle (the one that has started). */
    public void sync() {
        final long now = dma.cpuCycle();
        if (now > done) {
            catchUp(now);
        }
    }

    private void catchUp(long target) {
        changes.bump();
        if (eager) {
            // The reference: nothing of the lazy machinery, one step per cycle as it starts.
            while (done < target) {
                step();
                done++;
            }
            setDeadline(done + 1);
            irqLine = frameCounter.irq() || dmc.irqFlag;
            return;
        }
        boolean stepped = false;
        while (done < target) {
            if (quietUntil > done) {
                final int n = (int) (Math.min(quietUntil, target) - done);
                skip(n, quietLevel);
                done += n;
                continue;
            }
            // A quiet span is as long as it can be: when one has just been used up, the cycle
            // after it has the change that ended it, and is stepped without looking again.
            final int span = quietUntil == done ? 0 : quietSpan();
            if (span > 0) {
                quietUntil = done + span;
                quietLevel = level();
            } else {
                step();
                done++;
                stepped = true;
            }
        }
        if (stepped) {
            setDeadline(nextDeadline());
            irqLine = frameCounter.irq() || dmc.irqFlag;
        }
        // (Skipping alone moves no event: the deadline stays where it was.)
    }

    /**
     * The cartridge's sound chip was changed by the CPU (caught up before): the quiet span found
     * from its old state is dropped. Its changes raise no event, so the deadline stays.
     */
    void expansionChanged() {
        changes.bump();
        quietUntil = Long.MIN_VALUE;
    }

    /**
     * A write to $4010 (caught up before): it changed the DMC's rate and its loop and IRQ flags,
     * none of which moves the level or another channel. The quiet span found before stands for
     * the other channels and is cut to the DMC's own (a new rate moves its next expiry), so a
     * DMC that restarts its sample hundreds of times a frame costs no search of every channel's
     * span per write.
     */
    private void dmcControlWritten() {
        final long cut = quietUntil > done && dmc.quiet()
                ? Math.min(quietUntil, done + dmc.quietSpan()) : Long.MIN_VALUE;
        changed();
        quietUntil = cut;
    }

    /** The state changed other than by running: the quiet span must be found again. */
    private void changed() {
        changes.bump();
        quietUntil = Long.MIN_VALUE;
        setDeadline(nextDeadline());
        irqLine = frameCounter.irq() || dmc.irqFlag;
    }

    /**
     * True when the coming cycles do only what {@link #skip} does (besides events it is told
     * about): no $4017 write or DMC delay pending, no frame-counter clock blocking, no length
     * write waiting, and the frame counter's position in range.
     */
    private boolean quiet() {
        return frameCounter.quiet() && dmc.quiet() && !pulse1.length.pending() && !pulse2.length.pending()
                && !triangle.length.pending() && !noise.length.pending();
    }

    /** How many coming cycles {@link #skip} may run: 0 when the next must be stepped. */
    private int quietSpan() {
        if (!quiet()) {
            return 0;
        }
        int span = (int) Math.min(frameCounter.cyclesToStep() - 1, Integer.MAX_VALUE);
        span = Math.min(span, pulse1.quietSpan());
        span = Math.min(span, pulse2.quietSpan());
        span = Math.min(span, triangle.quietSpan());
        span = Math.min(span, noise.quietSpan());
        if (expansion != null) {
            span = Math.min(span, expansion.quietSpan());
        }
        return Math.min(span, dmc.quietSpan());
    }

    /** The first cycle with a visible event (IRQ, DMA request, or a pending delayed effect). */
    private long nextDeadline() {
        if (eager || !quiet()) {
            return done + 1;
        }
        return done + Math.min(frameCounter.cyclesToStep(), dmc.cyclesToRequest());
    }

    /** {@code n} cycles of {@link #step} in which only timers run and the mixer's output stays {@code level}. */
    private void skip(int n, int level) {
        frameCounter.skip(n);
        pulse1.skip(n);
        pulse2.skip(n);
        triangle.skip(n);
        noise.skip(n);
        dmc.skip(n);
        if (expansion != null) {
            expansion.skip(n);
        }
        audio.advance(level, n);
    }

    /** Steps one cycle now (tests driving the APU alone; the console uses {@link #runTo}). */
    void cycle() {
        step();
        done++;
        changed();
    }

    /** Test reference: when on, every cycle is stepped as it starts (no lazy catch-up). */
    void setEager(boolean on) {
        sync();
        eager = on;
        changed();
    }

    /** One CPU cycle of the whole APU. */
    private void step() {
        dmc.stepDelays();
        final int frame = frameCounter.step();
        if (frame != FrameCounter.UNCHANGED) {
            digestStale = true;
            if (frame != FrameCounter.CHANGED) {
                clockUnits(frame == FrameCounter.HALF);
            }
        }
        if (pulse1.length.applyWrites() | pulse2.length.applyWrites() | triangle.length.applyWrites()
                | noise.length.applyWrites()) {
            digestStale = true;
        }
        pulse1.step();
        pulse2.step();
        triangle.step();
        noise.step();
        dmc.step();
        if (expansion != null) {
            expansion.step();
        }
        audio.sample(level());
    }

    /** The mixer's output: the 2A03's channels and the cartridge's sound chip, if any. */
    private int level() {
        final int mix = Mixer.mix(pulse1.output(), pulse2.output(), triangle.output(), noise.output(), dmc.level);
        return expansion == null ? mix : mix + expansion.output();
    }

    private void clockUnits(boolean half) {
        pulse1.quarterFrame();
        pulse2.quarterFrame();
        triangle.quarterFrame();
        noise.quarterFrame();
        if (half) {
            pulse1.halfFrame();
            pulse2.halfFrame();
            triangle.halfFrame();
            noise.halfFrame();
        }
    }

    /**
     * CPU read of $4015 (the only readable APU register), {@code openBus} being the external data
     * bus: the value goes onto the CPU's internal data bus only, and its bit 5, not driven, is the
     * internal bus's ({@link InternalBus}). Clears the frame IRQ flag at the APU's next
     * put-to-get step ({@link FrameCounter}).
     */
    public int read(int addr, int openBus) {
        sync();
        digestStale = true;
        final long now = dma.cpuCycle();
        final int value = status(internalBus.read(now, openBus));
        internalBus.drive(now, value);
        frameCounter.acknowledge();
        changed();
        return value;
    }

    /** What a $4015 read on the coming cycle would return, without side effects ({@code openBus}: the external bus). */
    public int peek(int addr, int openBus) {
        sync();
        return status(internalBus.read(dma.cpuCycle() + 1, openBus));
    }

    /** The status byte, bit 5 from the internal data bus {@code internal}. */
    private int status(int internal) {
        int v = internal & 0x20;
        if (pulse1.length.counter > 0) {
            v |= 0x01;
        }
        if (pulse2.length.counter > 0) {
            v |= 0x02;
        }
        if (triangle.length.counter > 0) {
            v |= 0x04;
        }
        if (noise.length.counter > 0) {
            v |= 0x08;
        }
        if (dmc.bytesRemaining > 0) {
            v |= 0x10;
        }
        if (frameCounter.flag()) {
            v |= 0x40;
        }
        if (dmc.irqFlag) {
            v |= 0x80;
        }
        return v;
    }

    /** CPU write to $4000-$4013, $4015 or $4017. */
    public void write(int addr, int value) {
        if (addr == 0x4012 || addr == 0x4013) {
            // The sample's address and length are read only as a sample starts: at a $4015
            // write or a fetched byte, each of which catches the APU up first. No cycle the APU
            // has yet to run reads them, so the write needs no catch-up.
            dmc.write(addr & 3, value & 0xFF);
            changes.bump();
            return;
        }
        sync();
        // The DMC's registers are in the DMC's own cached term (versioned, see term()): a game
        // that restarts samples hundreds of times a frame leaves the other channels' term cached.
        if (addr < 0x4010 || addr > 0x4013) {
            digestStale = true;
        }
        value &= 0xFF;
        switch (addr) {
            case 0x4000, 0x4001, 0x4002, 0x4003 -> pulse1.write(addr & 3, value);
            case 0x4004, 0x4005, 0x4006, 0x4007 -> pulse2.write(addr & 3, value);
            case 0x4008, 0x4009, 0x400A, 0x400B -> triangle.write(addr & 3, value);
            case 0x400C, 0x400D, 0x400E, 0x400F -> noise.write(addr & 3, value);
            case 0x4010 -> {
                dmc.write(0, value);
                dmcControlWritten();
                return;
            }
            case 0x4011 -> dmc.write(1, value);
            case 0x4015 -> writeStatus(value);
            case 0x4017 -> frameCounter.write(value, oddCycle());
            default -> {
            }
        }
        changed();
    }

    private void writeStatus(int value) {
        dmc.irqFlag = false;
        pulse1.length.setEnabled((value & 0x01) != 0);
        pulse2.length.setEnabled((value & 0x02) != 0);
        triangle.length.setEnabled((value & 0x04) != 0);
        noise.length.setEnabled((value & 0x08) != 0);
        dmc.setEnabled((value & 0x10) != 0, oddCycle());
    }

    private boolean oddCycle() {
        return (dma.cpuCycle() & 1) != 0;
    }

    /**
     * True while the frame counter or the DMC pulls /IRQ low. Exact without catching up: the
     * flags change only on register accesses, DMC fetches and deadline steps, after each of
     * which {@link #irqLine} is set again.
     */
    public boolean irq() {
        return irqLine;
    }

    /** The address the DMC's memory reader wants next (for DMC DMA). */
    public int dmcReadAddress() {
        sync();
        return dmc.readAddress();
    }

    /** The byte DMC DMA fetched. */
    public void dmcDmaDone(int value) {
        sync();
        dmc.fetched(value);
        changed();
    }

    /** The DMC unit (tests and debuggers in this package), caught up; the caller may change it. */
    Dmc dmc() {
        sync();
        changed();
        return dmc;
    }

    /** The audio samples produced so far (read them each frame); caught up to the present cycle. */
    public AudioOutput audio() {
        sync();
        return audio;
    }

    /**
     * This component's term of the per-cycle digest ({@code DigestTerm.of(this)}). Most APU
     * state changes only on register writes and reads, frame-counter clocks and delayed writes;
     * that part is cached and recomputed after such an event ({@link #digestStale}), while the
     * frame counter's cycle and the channels' timers and sequencers are packed again only when
     * the APU has run since ({@link #termCache}), and the DMC keeps its own cache.
     */
    @Override
    public long digestTerm() {
        sync();
        return term();
    }

    /**
     * True when the described state equals {@code o}'s, for the lockstep verifier's per-cycle
     * check: both APUs have run through the same cycle and their terms as of then are equal.
     * Neither is caught up: equal states as of the same last caught-up cycle mean equal states
     * now, since catching up depends on nothing else. Usually two loads and two compares each
     * ({@link #term} is cached while the APU neither runs nor changes).
     */
    public boolean sameState(Apu o) {
        return done == o.done && term() == o.term();
    }

    /** The term of the state as it stands (not caught up), cached (see {@link #termCache}). */
    private long term() {
        if (digestStale || done != termDone || dmc.digestChangedSince(termDmcVersion)) {
            refreshTerm();
        }
        return termCache;
    }

    private void refreshTerm() {
        refreshDigest();
        final long dmcTerm = dmc.digestTerm();
        termCache = digestCold + hotDigestTerm() + S_DMC * dmcTerm;
        termDone = done;
        termDmcVersion = dmc.digestVersion();
    }

    private void refreshDigest() {
        if (digestStale) {
            digestCold = fullDigestTermWithoutDmc() - hotDigestTerm();
            digestStale = false;
            termDone = Long.MIN_VALUE;
        }
    }

    private long hotDigestTerm() {
        return W0 * frameCounter.hotWord0()
                + S_PULSE1 * pulse1.hotDigestTerm()
                + S_PULSE2 * pulse2.hotDigestTerm()
                + S_TRIANGLE * triangle.hotDigestTerm()
                + S_NOISE * noise.hotDigestTerm();
    }

    private long fullDigestTermWithoutDmc() {
        return W0 * frameCounter.word0()
        + S_PULSE1 * pulse1.digestTerm()
        + S_PULSE2 * pulse2.digestTerm()
        + S_TRIANGLE * triangle.digestTerm()
        + S_NOISE * noise.digestTerm()
        + W1 * frameCounter.word1()
        + internalBus.term();
    }

    /**
     * The term of the described state as it stands, not caught up: the APU as of cycle
     * {@link #syncedCycle}. Equals {@link #digestTerm} once caught up ({@link #sync}).
     */
    public long representedTerm() {
        return term();
    }

    /** The last CPU cycle (the console's numbering) the APU has run through. */
    public long syncedCycle() {
        return done;
    }

    /**
     * Visits the described state as it stands, not caught up (as of {@link #syncedCycle}), for
     * {@code Console#representation}: writers only. Values the visitor returns are stored and
     * the cached terms dropped, but nothing else is recomputed (no deadline moves).
     */
    public void representation(StateVisitor s) {
        visit(s);
        digestStale = true;
    }

    @Override
    public void state(StateVisitor s) {
        if (!s.isReader()) {
            sync();
        }
        visit(s);
        digestStale = true;
        if (s.isReader()) {
            // Loaded at the console's cycle (its section comes first; Console.state caught up before).
            done = dma.cpuCycle();
        }
        changed();
        // audio: an output sink (like the PPU's picture), rebuilt from the state, not part of it.
    }

    /** The described fields, in order (see {@link #state}). */
    private void visit(StateVisitor s) {
        frameCounter.visit(s);
        internalBus.visit(s);
        s.section("pulse1", pulse1);
        s.section("pulse2", pulse2);
        s.section("triangle", triangle);
        s.section("noise", noise);
        s.section("dmc", dmc);
    }
}
