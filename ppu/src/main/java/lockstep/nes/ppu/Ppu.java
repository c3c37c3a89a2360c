package lockstep.nes.ppu;

import lockstep.nes.state.ChangeCounter;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.Memory;
import lockstep.nes.state.NotState;
import lockstep.nes.state.StateVisitor;

/**
 * The 2C02 PPU (or a 2C07 / UA6538, whose frames differ: {@link Region}): its registers
 * ($2000-$2007), power and reset, vertical blank and /NMI, and the dot clock that drives its
 * units one dot at a time.
 *
 * <p>The units model the hardware as it runs: {@link Timing} (scanline and dot),
 * {@link Scroll} (loopy's v/t/x/w), {@link Background} (nametable, attribute and pattern
 * fetches into the shift registers; the cartridge sees every address through {@link PpuBus}),
 * {@link SpriteEvaluation} (byte by byte into secondary OAM, with the overflow bug),
 * {@link SpriteFetch} (the sprite pattern fetches on dots 257-320), {@link PixelOutput}
 * (priority, palette, greyscale and emphasis), {@link OpenBus} (the decaying I/O bus) and
 * {@link DataPort} ($2007 and its data state machine). {@link #run} takes stretches of dots
 * through {@link FastDots} where they equal the dot steps (a pending data read stops them).
 *
 * <p>The /NMI output is a level ({@code vblank && ctrl.7}); the CPU detects its edge at the end
 * of each CPU cycle, which gives the $2002 race and the NMI-enable behaviour of the hardware.
 */
public final class Ppu implements Digestible {
    public static final int WIDTH = PixelOutput.WIDTH;
    public static final int HEIGHT = PixelOutput.HEIGHT;

    /**
     * Dots from a $2001 write to the end of the dot after which the pipeline sees its rendering
     * bits: the change shows from the fourth dot after the write (see docs/design/ppu.md).
     */
    static final int RENDERING_DELAY = 3;
    private static final int PIPE_TOP = 1 << (RENDERING_DELAY - 1);
    private static final int PIPE_ALL = (1 << RENDERING_DELAY) - 1;

    /** The fewest visible dots worth running through {@link FastDots} (see docs/design/ppu.md). */
    private static final int BATCH_MIN = 8;

    // The region's frame (see Region). Fixed wiring, not state.
    private final Region region;
    /** The pre-render line and the line whose dot 1 sets vertical blank. */
    private final int preRenderLine;
    private final int vblankLine;
    /** The pre-render line is a dot short on odd frames while rendering (NTSC). */
    private final boolean oddFrameSkip;
    /** The dots that change what the CPU side sees without a register access. */
    @NotState("the region's event dots: fixed wiring")
    private final FrameEvents events;

    private final PpuBus bus;
    final Timing timing;
    final Scroll scroll = new Scroll();
    final OpenBus openBus = new OpenBus();
    private final RenderBus renderBus;
    final Background background;
    final PixelOutput pixels;
    final SpriteEvaluation evaluation = new SpriteEvaluation();
    final SpriteFetch sprites;
    final SpriteUnits units = new SpriteUnits();
    private final FetchCadence cadence;
    final DataPort data;
    private final FastDots fast;

    // Registers.
    int ctrl;
    int mask;
    boolean vblank;
    boolean nmiOutput;
    /** A $2002 read one dot before vblank starts: the flag is not set this frame. */
    boolean suppressVblank;
    /**
     * False while the PPU's reset flag is set: the reset input sets it and the pre-render line
     * clears it (with vblank, sprite 0 hit and overflow); meanwhile writes to $2000/$2001/$2005/
     * $2006 are ignored. Clear at a cold power-on: the Famicom and the NES-101 do not drive the
     * PPU's reset input, and software written for them sets up the PPU in the first frame.
     */
    boolean warmedUp;
    /** Rendering as the pipeline sees it: $2001's bits 3-4 take effect {@link #RENDERING_DELAY} dots late. */
    boolean renderingEnabled;
    /**
     * The rendering switch on its way to the pipeline: bit k is the value {@link #renderingEnabled}
     * takes at the end of the (k+1)th dot from now; the top bit holds the last $2001 write's.
     */
    int renderingPipe;
    /** A change that {@link #updateState} applies at the start of the next dot. */
    boolean stateUpdatePending;
    /** A $2006 address waiting to be copied to v, and the dots left until it is. */
    int pendingV;
    int vUpdateDelay;

    /** This PPU's digest term, cached in parts (see {@link PpuDigest}). */
    @NotState("digest cache")
    private final PpuDigest digest = new PpuDigest(this);
    /** Counts calls of the public mutators for the lockstep check (see {@link ChangeCounter}). Wiring. */
    ChangeCounter changes = new ChangeCounter();

    /** An NTSC (2C02) PPU. */
    public Ppu(PpuBus bus) {
        this(bus, Region.NTSC);
    }

    /** The PPU of {@code region}'s console. */
    public Ppu(PpuBus bus, Region region) {
        this.region = region;
        this.preRenderLine = region.preRenderLine;
        this.vblankLine = region.vblankLine;
        this.oddFrameSkip = region.oddFrameSkip;
        this.events = new FrameEvents(region);
        this.timing = new Timing(region);
        this.bus = bus;
        renderBus = new RenderBus(bus, timing);
        background = new Background(scroll, renderBus);
        pixels = new PixelOutput(background, scroll);
        sprites = new SpriteFetch(evaluation, scroll, renderBus, pixels, units);
        cadence = new FetchCadence(timing, scroll, background, sprites, renderBus);
        data = new DataPort(timing, scroll, renderBus, cadence, pixels);
        fast = new FastDots(timing, scroll, background, evaluation, sprites, pixels, renderBus);
    }

    /** Counts this PPU's changes in {@code counter} (see {@link ChangeCounter}). */
    public void trackChanges(ChangeCounter counter) {
        changes = counter;
        digest.forgetRendering();
    }

    public void power() {
        changes.bump();
        digest.eventsChanged();
        timing.power();
        ctrl = 0;
        mask = 0;
        vblank = false;
        scroll.power();
        data.power();
        suppressVblank = false;
        warmedUp = true;
        openBus.power();
        renderingEnabled = false;
        renderingPipe = 0;
        stateUpdatePending = false;
        pendingV = 0;
        vUpdateDelay = 0;
        background.power();
        evaluation.power();
        sprites.power();
        units.power();
        pixels.power();
        updateNmi();
    }

    /** The console's reset line: clears $2000, $2001, the scroll latches, w and the read buffer. */
    public void reset() {
        changes.bump();
        digest.eventsChanged();
        ctrl = 0;
        mask = 0;
        scroll.reset();
        data.reset();
        timing.oddFrame = false;
        warmedUp = false;
        scheduleRendering(false);
        updateNmi();
    }

    // ------------------------------------------------------------------------------------------
    // The dot clock.

    /** Advances {@code n} dots: the same as {@code n} calls of {@link #step}, with fast paths. */
    public void run(int n) {
        changes.bump();
        final Timing time = timing;
        while (n > 0) {
            final int d = time.dot;
            final int line = time.scanline;
            // A batch runs only while no register effect is pending (updateState would act on
            // the next dot) and stays within one line, so the line's events stay in stepDot.
            if (!stateUpdatePending) {
                if (line < 240) {
                    if (renderingEnabled) {
                        // While the sprite output units run live, rendering dots go one by one
                        // (see SpriteUnits).
                        if (!units.live && d < 256) {
                            final int k = Math.min(n, 256 - d);
                            if (k >= BATCH_MIN) {
                                data.age(k);
                                fast.visibleDots(k, ctrl, mask);
                                n -= k;
                                continue;
                            }
                        } else if (!units.live && d < 340 && n >= BATCH_MIN) {
                            final int k = Math.min(n, 340 - d);
                            data.age(k);
                            fast.hblankDots(k, true, ctrl);
                            n -= k;
                            continue;
                        }
                    } else if (d < 340) {
                        final int k = Math.min(n, 340 - d);
                        data.age(k);
                        // Forced blank: the sprite units' counters count on the visible dots.
                        if (!units.live) {
                            units.goLive(false, false, d);
                        }
                        if (d < 256) {
                            units.clockCounters(Math.min(k, 256 - d));
                        }
                        fast.backdropDots(k, mask);
                        n -= k;
                        continue;
                    }
                } else if (line < preRenderLine) {
                    if ((line != vblankLine || d >= 1) && d < 340) {
                        // Post-render and vertical blank after its first dot: nothing happens but the count.
                        final int k = Math.min(n, 340 - d);
                        data.age(k);
                        fast.idleDots(k);
                        n -= k;
                        continue;
                    }
                } else if (d >= 1) {
                    // The pre-render line after its flag-clearing first dot. Its dot 339 (the
                    // odd-frame skip) and 340 stay in stepDot.
                    if (!renderingEnabled) {
                        if (d < 340) {
                            final int k = Math.min(n, 340 - d);
                            data.age(k);
                            fast.idleDots(k);
                            n -= k;
                            continue;
                        }
                    } else if (d < 338 && n >= BATCH_MIN && (d < 256 || !units.live)) {
                        final int k;
                        if (d < 256) {
                            k = Math.min(n, 256 - d);
                            data.age(k);
                            fast.tileFetchDots(k, ctrl);
                        } else {
                            k = Math.min(n, 338 - d);
                            data.age(k);
                            fast.hblankDots(k, false, ctrl);
                        }
                        n -= k;
                        continue;
                    }
                }
            }
            stepDot();
            n--;
        }
    }

    /** Dots from now until the next one that changes what the CPU side sees ({@link FrameEvents}); at least 1. */
    public int dotsToEvent() {
        return events.dotsAfter(timing.scanline, timing.dot);
    }

    /** Advances one dot. */
    public void step() {
        changes.bump();
        stepDot();
    }

    private void stepDot() {
        if (data.ignoreRead > 0) {
            data.ignoreRead--;
        }
        final Timing time = timing;
        if (time.dot < 340) {
            time.dot++;
        } else {
            time.dot = 0;
            digest.eventsChanged();
            time.nextScanline();
            if (time.scanline == preRenderLine && renderingEnabled && evaluation.corruptRows != 0) {
                // Rendering switched back on in vertical blank: the corruption happens as the
                // pre-render line starts.
                evaluation.renderingStarted();
            }
        }
        if (data.readIn != 0 && --data.readIn == 0) {
            // The $2007 state machine reads as its dot starts (see DataPort).
            data.readDot(renderingNow(), ctrl);
        }
        final int line = time.scanline;
        final boolean visible = line < 240;
        if (visible || line == preRenderLine) {
            if (!visible && time.dot == 1) {
                digest.eventsChanged();
                vblank = false;
                pixels.sprite0Hit = false;
                evaluation.spriteOverflow = false;
                warmedUp = true;
                updateNmi();
                if (renderingEnabled) {
                    evaluation.frameStarts();
                }
            }
            // One renderDot call site for both kinds of rendering line (see docs/design/ppu.md).
            if (renderingEnabled) {
                renderDot(visible);
            } else if (visible && time.dot >= 1 && time.dot <= 256) {
                // Forced blank: the sprite units' counters count (see SpriteUnits).
                if (!units.live) {
                    units.goLive(false, false, time.dot - 1);
                }
                units.clockCounters(1);
                pixels.drawBackdrop(time.dot - 1, line, mask);
            }
            if (!visible && time.dot == 339 && time.oddFrame && oddFrameSkip && skipSeesRendering()) {
                // NTSC: odd frames skip the last dot of the pre-render line when rendering is on.
                time.dot = 340;
            }
        } else if (line == vblankLine && time.dot == 1) {
            digest.eventsChanged();
            if (!suppressVblank) {
                vblank = true;
                updateNmi();
            }
            suppressVblank = false;
        }
        if (stateUpdatePending) {
            digest.eventsChanged();
            // Register effects that lag: rendering on/off is seen from the fourth dot after the
            // $2001 write, and v takes a $2006 address 3 dots after the write.
            updateState();
        }
    }

    private void updateState() {
        stateUpdatePending = false;
        final int pipe = renderingPipe;
        final boolean rendering = (pipe & 1) != 0;
        renderingPipe = (pipe >> 1) | (pipe & PIPE_TOP);
        if (renderingPipe != (rendering ? PIPE_ALL : 0)) {
            stateUpdatePending = true;
        }
        if (rendering != renderingEnabled && (timing.scanline < 240 || timing.scanline == preRenderLine)) {
            // Rendering switched off on a rendering line can leave an OAM row to corruption;
            // switched on again there, the corruption happens.
            if (rendering) {
                evaluation.renderingStarted();
            } else {
                evaluation.renderingStopped(timing.dot);
            }
            // The sprite units' shifters hold while rendering is off (see SpriteUnits).
            if (!units.live) {
                units.goLive(renderingEnabled && timing.scanline < 240, renderingEnabled, timing.dot);
            }
        }
        renderingEnabled = rendering;
        if (vUpdateDelay > 0) {
            if (--vUpdateDelay == 0) {
                final int oldV = scroll.v;
                scroll.v = pendingV;
                if (!renderingNow()) {
                    bus.ppuAddress(pendingV & 0x3FFF);
                } else {
                    // Landing between a fetch's ALE and read dots, it changes A8-A13 of the read.
                    cadence.addressChanged(oldV, ctrl);
                }
            } else {
                stateUpdatePending = true;
            }
        }
        if (data.readIn != 0) {
            data.takeLines();
            stateUpdatePending = true;
        }
    }

    /**
     * Rendering as the odd-frame skip sees it: the $2001 bits from the second dot after the write,
     * two dots before the pipeline (see docs/design/ppu.md).
     */
    private boolean skipSeesRendering() {
        return ((renderingPipe >> (RENDERING_DELAY - 2)) & 1) != 0;
    }

    /** A new rendering switch enters the pipe: the pipeline sees it {@link #RENDERING_DELAY} dots on. */
    private void scheduleRendering(boolean on) {
        renderingPipe = (renderingPipe & (PIPE_TOP - 1)) | (on ? PIPE_TOP : 0);
        stateUpdatePending = true;
    }

    private void updateNmi() {
        nmiOutput = vblank && (ctrl & 0x80) != 0;
    }

    /** A dot of a rendering line ({@code visible}, or the pre-render line) with rendering on. */
    private void renderDot(boolean visible) {
        final int d = timing.dot;
        final int line = timing.scanline;
        if (d == 0) {
            // Idle dot. After a rendered line the bus already shows the pattern address that
            // dot 5 will read (computed from dot 339's fetch): A12 does not stay low from
            // dot 337 to dot 5 when backgrounds use $1000.
            if (visible) {
                bus.ppuAddress(background.patternAddress(ctrl));
            }
            return;
        }
        if (d <= 256 || (d > 320 && d <= 336)) {
            // Dots 1-256 and 321-336 share one call site (see docs/design/ppu.md).
            background.dot(d, ctrl);
            if (d <= 256) {
                if (visible) {
                    if (units.live) {
                        pixels.draw(d - 1, line, mask, units.pixel());
                    } else {
                        pixels.draw(d - 1, line, mask);
                    }
                    evaluation.dot(d, line, ctrl);
                }
                if (d == 256) {
                    scroll.incrementY();
                }
            }
        } else if (d <= 320) {
            if (d == 257) {
                // The background shifters' last clock and reload of the line.
                background.shift();
                background.reload();
                sprites.start();
            }
            evaluation.oamAddr = 0;
            sprites.dot(d, line, ctrl);
            if (d == 257) {
                // After the nametable address of dot 257 is set up from v.
                scroll.copyHorizontal();
            }
            if (!visible && d >= 280 && d <= 304) {
                scroll.copyVertical();
            }
        } else {
            if (d == 337) {
                background.shift();
                background.reload();
            }
            if ((d & 1) != 0) {
                // Two unused nametable fetches (dots 337 and 339).
                background.ntLatch = renderBus.fetchDot(0x2000 | (scroll.v & 0x0FFF));
                if (d == 339 && units.live) {
                    // Dot 339 sets the sprite output units counting (see SpriteUnits).
                    units.restart();
                }
            }
        }
    }

    // ------------------------------------------------------------------------------------------
    // CPU interface.

    private boolean renderingNow() {
        return renderingEnabled && (timing.scanline < 240 || timing.scanline == preRenderLine);
    }

    /** A CPU read of register {@code reg} (0..7), with its side effects. */
    public int readRegister(int reg) {
        changes.bump();
        digest.eventsChanged();
        switch (reg & 7) {
            case 2 -> {
                int value = statusAsRead() | (decayedOpenBus() & 0x1F);
                if (timing.scanline == vblankLine && timing.dot == 0) {
                    // Read one dot before the flag is set: it reads clear and is not set this frame.
                    suppressVblank = true;
                }
                vblank = false;
                scroll.w = false;
                updateNmi();
                return latch(value, 0xE0);
            }
            case 4 -> {
                return latch(evaluation.readData(renderingNow(), timing.dot), 0xFF);
            }
            case 7 -> {
                // Two $2007 reads within a few dots (a DMA re-read, an indexed read crossing
                // $2007) count once: the second returns open bus and touches nothing.
                if (data.ignoreRead > 0) {
                    return decayedOpenBus();
                }
                final int value = dataAsRead();
                stateUpdatePending |= data.startRead(renderingNow(), ctrl);
                return latch(value, (scroll.v & 0x3F00) == 0x3F00 ? 0x3F : 0xFF);
            }
            default -> {
                return decayedOpenBus();
            }
        }
    }

    private int statusBits() {
        return (vblank ? 0x80 : 0) | (pixels.sprite0Hit ? 0x40 : 0) | (evaluation.spriteOverflow ? 0x20 : 0);
    }

    /**
     * $2002 as a read returns it: the vblank bit is latched as the read starts (M2 rising), the
     * sprite 0 hit and overflow bits pass through unlatched until it ends (M2 falling, almost two
     * dots later on NTSC), so a read that starts on the dot before their clear (pre-render dot
     * 1) returns vblank set and them already clear.
     */
    private int statusAsRead() {
        final int bits = statusBits();
        return timing.scanline == preRenderLine && timing.dot == 0 ? bits & 0x80 : bits;
    }

    /** $2007 as a read returns it: a palette entry at $3F00-$3FFF, else the old buffer. */
    private int dataAsRead() {
        final int addr = scroll.v & 0x3FFF;
        return addr >= 0x3F00
                ? (pixels.readPalette(addr) & ((mask & 1) != 0 ? 0x30 : 0x3F)) | (decayedOpenBus() & 0xC0)
                : data.readBuffer;
    }

    /** Register value without side effects (for debuggers and the verifier). */
    public int peekRegister(int reg) {
        return switch (reg & 7) {
            case 2 -> statusAsRead() | (decayedOpenBus() & 0x1F);
            case 4 -> evaluation.peekData(renderingNow(), timing.dot);
            case 7 -> dataAsRead();
            default -> decayedOpenBus();
        };
    }

    /**
     * True when a CPU write of {@code value} to register {@code reg}, made {@code dotsBehind}
     * dots after the PPU's position, may land before the PPU runs those dots
     * ({@link RegisterWritesAhead}).
     */
    public boolean writeLandsAhead(int reg, int value, long dotsBehind) {
        return RegisterWritesAhead.lands(reg, value, dotsBehind, timing, scroll, preRenderLine, warmedUp, ctrl);
    }

    public void writeRegister(int reg, int value) {
        // $2000, $2005 and $2006 change only the registers' part of the digest term (ctrl, the
        // scroll latches t, fine X and w, a pending v, the NMI output, the open bus): a valid
        // cache of the rest holds, and so does the rendering part.
        final boolean latchesOnly = (reg & 7) == 0 || (reg & 7) == 5 || (reg & 7) == 6;
        final boolean renderingHeld = latchesOnly && digest.renderingValidAt(changes.count());
        final boolean eventsHeld = latchesOnly && digest.eventsValid();
        changes.bump();
        value &= 0xFF;
        if ((reg & 7) == 4 && digest.eventsValid()) {
            // An OAMDATA write (256 a frame in an OAM DMA, each folded by a verifying stretch)
            // changes only the open bus, OAM and OAMADDR: the cached part of the digest term
            // takes the difference instead of being recomputed.
            final long was = evaluation.coldTerm();
            latch(value, 0xFF);
            evaluation.writeData(renderingNow(), value);
            digest.oamWritten(evaluation.coldTerm() - was);
            return;
        }
        digest.eventsChanged();
        latch(value, 0xFF);
        switch (reg & 7) {
            case 0 -> {
                if (warmedUp) {
                    ctrl = value;
                    scroll.writeCtrl(value);
                    updateNmi();
                }
            }
            case 1 -> {
                if (warmedUp) {
                    final int old = mask;
                    mask = value;
                    scheduleRendering((value & 0x18) != 0);
                    if (((old ^ value) & 0xE1) != 0) {
                        pixels.reapplyMask(timing.scanline, timing.dot, value);
                    }
                }
            }
            case 3 -> evaluation.writeAddress(value);
            case 4 -> evaluation.writeData(renderingNow(), value);
            case 5 -> {
                if (warmedUp) {
                    scroll.writeScroll(value);
                }
            }
            case 6 -> {
                if (warmedUp) {
                    final int address = scroll.writeAddress(value);
                    if (address >= 0) {
                        // v takes the new address 3 dots after the second write.
                        pendingV = address;
                        vUpdateDelay = 3;
                        stateUpdatePending = true;
                    }
                }
            }
            case 7 -> data.write(value, renderingNow(), ctrl);
            default -> {
            }
        }
        digest.registersWritten(eventsHeld, renderingHeld, changes.count());
    }

    /** The open bus as of this frame (its decay changes the cached part of the digest term). */
    private int decayedOpenBus() {
        digest.eventsChanged();
        return openBus.decayed(timing.frameCount);
    }

    private int latch(int value, int driven) {
        digest.eventsChanged();
        return openBus.latch(value, driven, timing.frameCount);
    }

    // ------------------------------------------------------------------------------------------
    // Accessors.

    /** True while the PPU pulls /NMI low. */
    public boolean nmiOutput() {
        return nmiOutput;
    }

    public int scanline() {
        return timing.scanline;
    }

    public int dot() {
        return timing.dot;
    }

    public long frameCount() {
        return timing.frameCount;
    }

    /** The console region whose frame this PPU runs. */
    public Region region() {
        return region;
    }

    /** Whether the PPU renders: the $2001 bits as it applies them (from the second dot after the write). */
    public boolean renderingEnabled() {
        return renderingEnabled;
    }

    /**
     * True when no register effect is still to land (the rendering switch, a $2006 address): until
     * the next register access the PPU's bus traffic then follows from ctrl, whether it renders
     * and its position alone.
     */
    public boolean settled() {
        return !stateUpdatePending;
    }

    /** The picture: 256x240 9-bit values (palette index | emphasis << 6). */
    public short[] frame() {
        return pixels.frame;
    }

    /**
     * Draws the picture (the default) or not. The PPU's state, and so every digest, is the same
     * either way; a PPU that does not draw spares the picture's stores, for engines whose picture
     * no one looks at (a verifier's). Turned on again, the picture is blank until drawn.
     */
    public void drawPicture(boolean on) {
        pixels.drawing(on);
    }

    /** Whether the picture is drawn ({@link #drawPicture}). */
    public boolean drawsPicture() {
        return pixels.drawing;
    }

    /** The 256-byte primary OAM (for debuggers and tests; the caller may change it). */
    public Memory oam() {
        digest.eventsChanged();
        return evaluation.oam;
    }

    /** The 32-byte palette RAM (for debuggers and tests; the caller may change it). */
    public Memory palette() {
        digest.eventsChanged();
        pixels.shownMask = -1;
        return pixels.palette;
    }

    /** The last value written to $2000 (after warm-up). */
    public int ctrl() {
        return ctrl;
    }

    /** The last value written to $2001 (after warm-up). */
    public int mask() {
        return mask;
    }

    /** loopy's v (current VRAM address). */
    public int vramAddress() {
        return scroll.v;
    }

    /** loopy's t (temporary VRAM address). */
    public int tempAddress() {
        return scroll.t;
    }

    public int fineX() {
        return scroll.fineX;
    }

    public boolean writeToggle() {
        return scroll.w;
    }

    public int oamAddress() {
        return evaluation.oamAddr;
    }

    // ------------------------------------------------------------------------------------------
    // State.

    /** This component's term of the per-cycle digest ({@code DigestTerm.of(this)}), cached in parts ({@link PpuDigest}). */
    @Override
    public long digestTerm() {
        return digest.term();
    }

    /**
     * The description: the units' entries in the order the PPU has always been described in
     * (status and register entries of several units come first), so snapshots stay the same.
     */
    @Override
    public void state(StateVisitor s) {
        changes.bump();
        timing.state(s);
        ctrl = s.u8("ctrl", ctrl);
        mask = s.u8("mask", mask);
        vblank = s.bool("vblank", vblank);
        pixels.hitState(s);
        evaluation.registerState(s);
        scroll.state(s);
        data.readBuffer = s.u8("readBuffer", data.readBuffer);
        nmiOutput = s.bool("nmiOutput", nmiOutput);
        suppressVblank = s.bool("suppressVblank", suppressVblank);
        data.ignoreRead = s.u8("ignoreDataRead", data.ignoreRead, DataPort.IGNORE_DOTS);
        warmedUp = s.bool("warmedUp", warmedUp);
        openBus.state(s);
        renderingEnabled = s.bool("renderingEnabled", renderingEnabled);
        stateUpdatePending = s.bool("stateUpdatePending", stateUpdatePending);
        pendingV = s.u16("pendingV", pendingV, 0x7FFF);
        vUpdateDelay = s.u8("vUpdateDelay", vUpdateDelay, 3);
        background.state(s);
        evaluation.state(s);
        sprites.state(s);
        pixels.state(s);
        evaluation.memoryState(s);
        pixels.paletteState(s);
        evaluation.corruptionState(s);
        units.state(s);
        renderingPipe = s.u8("renderingPipe", renderingPipe, PIPE_ALL);
        data.machineState(s);
        renderBus.data = -1;
        digest.eventsChanged();
        // The frame buffer is output, not state: it is rebuilt by the next frame.
    }
}
