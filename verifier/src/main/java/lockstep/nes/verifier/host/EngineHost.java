package lockstep.nes.verifier.host;

import static lockstep.nes.verifier.host.HostProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.security.MessageDigest;
import java.util.List;

import lockstep.nes.ppu.Region;
import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.cheat.CheatException;
import lockstep.nes.core.cpu.Disassembler;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.state.Describer;
import lockstep.nes.core.snapshot.RomId;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.SnapshotFormat;
import lockstep.nes.core.snapshot.Snapshots;
import lockstep.nes.core.trace.TraceLine;
import lockstep.nes.core.trace.TraceRing;
import lockstep.nes.state.StateEntry;
import lockstep.nes.verifier.FaultSpec;
import lockstep.nes.verifier.EngineStretch;
import lockstep.nes.verifier.Faults;
import lockstep.nes.verifier.Revisits;

/**
 * The engine host: one engine of this build served over the engine-host protocol on a pair of
 * streams (a child process's stdin and stdout). Requests are answered in order; a request the
 * host cannot carry out gets an ERROR message and the host waits for the next one.
 *
 * <p>Input: frame n's movie input (power / reset command, then both pads) is applied just before
 * the first cycle of the n-th frame this host runs after LOAD_ROM; past the movie's end no
 * buttons are pressed (as {@code lockstep.nes.verifier.MovieInput}).
 */
public final class EngineHost {
    private final DataInputStream in;
    private final OutputStream out;
    private final String buildId;
    private final Message msg = new Message(OK);

    private Cartridge cart;
    private Console console;
    private Snapshots snapshots;
    private CycleDigest digest;
    private final MessageDigest sha = RomId.sha256();

    private byte[] commands = new byte[0];
    private byte[] port0 = new byte[0];
    private byte[] port1 = new byte[0];
    /** Frames run since LOAD_ROM: the index of the next frame's input. */
    private int inputFrame;
    /** True between a frame's first cycle and its end (after RUN_TO_CYCLE stopped mid-frame). */
    private boolean inFrame;
    private long frameStart;

    /**
     * The stream position (protocol version 2): Console.cycles() after LOAD_ROM, RESTORE,
     * RUN_FRAMES and RUN_TO_CYCLE; one more per step of RUN_STREAM (a skipped cycle is a step).
     */
    private long position;
    /** Armed faults (null when none), their specs as the controller sent them, and how many fired. */
    private Faults faults;
    private String[] faultSpecs = new String[0];
    private int firedSeen;
    private boolean[] faultReported = new boolean[0];
    private long[] streamBuf = new long[0];
    /** The digests RUN_STREAM sends (STREAM_DIGESTS, version 4); present-state until asked. */
    private int streamDigests = DIGEST_PRESENT;
    /** Revisits of the engine during RUN_STREAM (REVISIT, version 4): the partner's state faults. */
    private Revisits revisits = Revisits.NONE;
    /** The chained streams' engine side, rebuilt when the console, faults or revisits change. */
    private EngineStretch stretch;
    private Faults stretchFaults;
    private Revisits stretchRevisits;
    /** The instructions the cycle-by-cycle runs record (TRACE, version 6). */
    private final HostTrace trace = new HostTrace();

    private short[] audio = new short[4096];
    private int audioCount;
    /** The observable hash scheme of FRAME records (HASHES, version 3); version 1's until asked. */
    private int hashScheme = HASH_FNV1A;
    private final Xxh64 xxh = new Xxh64();

    public EngineHost(InputStream in, OutputStream out, String buildId) {
        this.in = new DataInputStream(new BufferedInputStream(in, 1 << 16));
        this.out = new BufferedOutputStream(out, 1 << 16);
        this.buildId = buildId;
    }

    /**
     * The process entry point: serves stdin/stdout; anything else printing to System.out goes to
     * stderr so it cannot corrupt the protocol. Returns the exit status.
     */
    public static int main(String version) {
        PrintStream protocolOut = System.out;
        System.setOut(System.err);
        EngineHost host = new EngineHost(System.in, protocolOut, BuildId.of(version));
        try {
            return host.serve();
        } catch (IOException e) {
            System.err.println("engine-host: " + e.getMessage());
            return 3;
        }
    }

    /**
     * A JVM entry point in this module (the controller's tests start hosts from the verifier's
     * class path; builds start {@link HostProtocol#MAIN_CLASS}, which calls {@link #main(String)}).
     */
    public static void main(String[] args) {
        System.exit(main("lockstep-nes/dev"));
    }

    /** Sends HELLO, then answers requests until QUIT or the end of the input stream. */
    public int serve() throws IOException {
        msg.reset(HELLO).raw(MAGIC, 0, MAGIC.length).u16(VERSION).i32(SnapshotFormat.VERSION).str(buildId)
                .str(System.getProperty("java.version", "?"));
        send();
        while (true) {
            Payload p;
            try {
                p = HostProtocol.read(in);
            } catch (IOException e) {
                error("bad request: " + e.getMessage());
                return 3;
            }
            if (p == null) {
                return 0;
            }
            try {
                if (!handle(p)) {
                    return 0;
                }
            } catch (Failure e) {
                error(e.getMessage());
            } catch (IOException e) {
                error(typeName(p.type()) + ": malformed request (" + e.getMessage() + ")");
            }
        }
    }

    /** A request that cannot be carried out: answered with ERROR. */
    private static final class Failure extends Exception {
        Failure(String message) {
            super(message);
        }
    }

    private boolean handle(Payload p) throws IOException, Failure {
        switch (p.type()) {
            case LOAD_ROM -> {
                final String name = p.str();
                final byte[] image = p.bytes();
                final String region = p.remaining() > 0 ? p.str() : "";
                final String cheats = p.remaining() > 0 ? p.str() : "";
                final byte[] bios = p.remaining() > 0 ? p.bytes() : new byte[0];
                loadRom(name, image, region, cheats, bios, p.remaining() > 0 ? p.str() : "");
            }
            case LOAD_MOVIE -> loadMovie(p);
            case RUN_FRAMES -> runFrames(p.i32());
            case SNAPSHOT -> snapshot();
            case RESTORE -> restore(p.i32(), p.u8() != 0, p.bytes());
            case RUN_TO_CYCLE -> runToCycle(p.i64(), p.i32());
            case DESCRIBE -> describe();
            case OBSERVE -> observe();
            case INJECT -> inject(p);
            case RUN_STREAM -> runStream(p.i64(), p.i32(), p.i32(), p.i32());
            case HASHES -> hashes(p.u8());
            case STREAM_DIGESTS -> streamDigests(p.u8());
            case REVISIT -> revisit(p);
            case TRACE -> trace(p.i32());
            case QUIT -> {
                msg.reset(BYE);
                send();
                return false;
            }
            default -> throw new Failure("unknown request type " + typeName(p.type()));
        }
        return true;
    }

    /** STREAM_DIGESTS (version 4): selects the digests of the RUN_STREAMs that follow. */
    private void streamDigests(int kind) throws IOException, Failure {
        if (kind != DIGEST_PRESENT && kind != DIGEST_REPRESENTATION && kind != DIGEST_CHAINED) {
            throw new Failure("STREAM_DIGESTS: unknown digest kind " + kind + " (this host knows " + DIGEST_PRESENT
                    + ", " + DIGEST_REPRESENTATION + " and " + DIGEST_CHAINED + ")");
        }
        streamDigests = kind;
        msg.reset(OK).str(kind == DIGEST_PRESENT ? "present-state digests"
                : kind == DIGEST_REPRESENTATION ? "representation digests" : "chained stretch records");
        send();
    }

    /**
     * REVISIT (version 4): the console cycles after which the engine is revisited during
     * RUN_STREAM ({@code Console.revisit}: the visit a state fault's poke makes, changing
     * nothing), each once, replacing those armed before: where the partner host's state faults
     * fire, so that the two stay represented alike.
     */
    private void revisit(Payload p) throws IOException, Failure {
        int n = p.i32();
        if (n < 0 || n > 4096) {
            throw new Failure("REVISIT: bad cycle count " + n);
        }
        long[] cycles = new long[n];
        for (int i = 0; i < n; i++) {
            cycles[i] = p.i64();
        }
        revisits = new Revisits(cycles);
        msg.reset(OK).str(n + " revisits armed");
        send();
    }

    /**
     * TRACE (version 6): answers the instructions recorded so far, oldest first, in nestest's
     * log form, and records the last {@code capacity} instructions of the RUN_TO_CYCLE and
     * present-state RUN_STREAM runs that follow (0: records nothing from now on).
     */
    private void trace(int capacity) throws IOException, Failure {
        if (capacity < 0 || capacity > 4096) {
            throw new Failure("TRACE: capacity " + capacity + " out of range 0..4096");
        }
        List<TraceLine> lines = trace.recorded();
        msg.reset(TRACE_LINES).i32(lines.size());
        for (TraceLine line : lines) {
            msg.str(line.nestest());
        }
        trace.record(capacity, console);
        send();
    }

    /** HASHES (version 3): selects the observable hash scheme for the FRAME records that follow. */
    private void hashes(int scheme) throws IOException, Failure {
        if (scheme != HASH_FNV1A && scheme != HASH_XXH64) {
            throw new Failure("HASHES: unknown hash scheme " + scheme + " (this host knows " + HASH_FNV1A + " and "
                    + HASH_XXH64 + ")");
        }
        hashScheme = scheme;
        msg.reset(OK).str("observable hashes " + hashName(scheme));
        send();
    }

    /**
     * The observable hash, in the current scheme, of the first {@code n} values (the picture's
     * 9-bit pixels, the frame's audio samples) taken as unsigned 16-bit.
     */
    private long observableHash(short[] values, int n) {
        return hashScheme == HASH_XXH64 ? xxh.hashShorts(values, n) : hashSamples(values, n);
    }

    /** The observable hash of CPU RAM in the current scheme. */
    private long observableHash(byte[] ram) {
        return hashScheme == HASH_XXH64 ? Xxh64.hash(ram, 0, ram.length) : hashBytes(ram);
    }

    /**
     * A fresh engine for {@code rom}; a disk image runs with {@code bios} (empty: the config
     * folder's) and starts on {@code side} (empty: 1A).
     */
    private void loadRom(String name, byte[] rom, String regionId, String cheatCodes, byte[] bios, String side)
            throws IOException, Failure {
        Region region = regionId.isEmpty() ? null : Region.byId(regionId);
        if (!regionId.isEmpty() && region == null) {
            throw new Failure("unknown region '" + regionId + "' (ntsc, pal or dendy)");
        }
        final List<Cheat> cheats;
        try {
            cheats = HostProtocol.parseCheats(cheatCodes);
        } catch (CheatException e) {
            throw new Failure(e.getMessage());
        }
        Cartridge c;
        try {
            c = (bios.length > 0 || !side.isEmpty()) && lockstep.nes.core.cart.fds.DiskImage.looksLikeDisk(rom)
                    ? lockstep.nes.core.cart.fds.DiskSystem.loadWithBios(name, rom, bios.length > 0 ? bios : null,
                            side.isEmpty() ? null : side)
                    : lockstep.nes.core.cart.fds.DiskSystem.parseAny(name, rom);
            if (region != null) {
                c = c.withRegion(region);
            }
            c = c.withCheats(cheats);
            newConsole(c);
        } catch (RomFormatException e) {
            throw new Failure(e.getMessage());
        }
        cart = c;
        commands = new byte[0];
        port0 = new byte[0];
        port1 = new byte[0];
        inputFrame = 0;
        inFrame = false;
        audioCount = 0;
        position = console.cycles();
        trace.restart(console);
        msg.reset(OK).str(RomId.hex(snapshots.romSha256())).str(HostProtocol.cheatCodes(console.cheats()));
        send();
    }

    /** A fresh engine (and a fresh audio output, which is not machine state). */
    private void newConsole(Cartridge c) throws RomFormatException {
        console = Console.create(c);
        snapshots = new Snapshots(console);
        digest = new CycleDigest(console);
    }

    private void loadMovie(Payload p) throws IOException, Failure {
        int n = p.i32();
        if (n < 0 || (long) n * 3 > p.remaining()) {
            throw new Failure("LOAD_MOVIE: bad frame count " + n);
        }
        byte[] c = new byte[n];
        byte[] a = new byte[n];
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            c[i] = (byte) p.u8();
            a[i] = (byte) p.u8();
            b[i] = (byte) p.u8();
        }
        commands = c;
        port0 = a;
        port1 = b;
        msg.reset(OK).str(n + " frames");
        send();
    }

    private void requireRom() throws Failure {
        if (console == null) {
            throw new Failure("no ROM loaded (send LOAD_ROM first)");
        }
    }

    private void beginFrame() {
        if (inFrame) {
            return;
        }
        final Console c = console;
        int f = inputFrame;
        if (f < commands.length) {
            int cmd = commands[f] & 0xFF;
            if ((cmd & Fm2.COMMAND_POWER) != 0) {
                c.power();
            } else if ((cmd & Fm2.COMMAND_RESET) != 0) {
                c.reset();
            }
            if (c.mapper() instanceof lockstep.nes.core.cart.fds.FdsBoard disk) {
                disk.movieCommands(cmd);
            }
            c.setButtons(0, port0[f] & 0xFF);
            c.setButtons(1, port1[f] & 0xFF);
        } else {
            c.setButtons(0, 0);
            c.setButtons(1, 0);
        }
        // Exact between cycles without catching the PPU up (see runStream).
        frameStart = c.frameAfterCycle();
        inFrame = true;
    }

    private void endFrame() {
        inFrame = false;
        inputFrame++;
        collectAudio();
    }

    /**
     * Takes the samples the frame produced; only FRAME records hash them (chained streams send
     * the last frame's samples on OBSERVE, so hashing every frame there would be wasted).
     */
    private void collectAudio() {
        var ao = console.apu().audio();
        ao.flush();
        int n = ao.available();
        if (n > audio.length) {
            audio = new short[Math.max(n, audio.length * 2)];
        }
        audioCount = ao.read(audio, 0, n);
    }

    private void runFrames(int n) throws IOException, Failure {
        requireRom();
        if (n < 0) {
            throw new Failure("RUN_FRAMES: negative count " + n);
        }
        final Console c = console;
        for (int i = 0; i < n; i++) {
            beginFrame();
            // The engine's own frame loop: it ends on the same cycle as stepping until frame()
            // changes, without catching the lazy PPU up after every cycle (frame() does), which
            // made the host run at half the engine's speed.
            c.runFrame();
            int index = inputFrame;
            endFrame();
            final short[] px = c.ppu().frame();
            msg.reset(FRAME).i32(index).i64(c.cycles()).i64(c.frame())
                    .i64(observableHash(px, px.length))
                    .i64(observableHash(c.ram().array()))
                    .i64(observableHash(audio, audioCount)).i32(audioCount);
            stateHash();
            send(false);
        }
        position = c.cycles();
        msg.reset(RUN_END).i32(inputFrame).i64(c.cycles());
        send();
    }

    /** Appends the 32-byte state hash (SHA-256 of the canonical snapshot) to {@link #msg}. */
    private void stateHash() {
        int len = snapshots.saveToBuffer();
        sha.reset();
        sha.update(snapshots.buffer(), 0, len);
        byte[] h = sha.digest();
        msg.raw(h, 0, h.length);
    }

    private void snapshot() throws IOException, Failure {
        requireRom();
        int len = snapshots.saveToBuffer();
        sha.reset();
        sha.update(snapshots.buffer(), 0, len);
        byte[] h = sha.digest();
        msg.reset(SNAPSHOT_DATA).i32(inputFrame).u8(inFrame ? 1 : 0).i64(console.cycles()).raw(h, 0, 32)
                .bytes(snapshots.buffer(), 0, len);
        send();
    }

    private void restore(int frame, boolean midFrame, byte[] data) throws IOException, Failure {
        requireRom();
        if (frame < 0) {
            throw new Failure("RESTORE: negative input frame " + frame);
        }
        Console old = console;
        Snapshots oldSnapshots = snapshots;
        CycleDigest oldDigest = digest;
        try {
            newConsole(cart);
            snapshots.load(data, data.length, "RESTORE");
        } catch (RomFormatException | SnapshotException e) {
            console = old;
            snapshots = oldSnapshots;
            digest = oldDigest;
            throw new Failure(e.getMessage());
        }
        inputFrame = frame;
        inFrame = midFrame;
        position = console.cycles();
        frameStart = console.frame();
        audioCount = 0;
        trace.restart(console);
        msg.reset(OK).str("restored at cycle " + console.cycles());
        send();
    }

    private void runToCycle(long target, int batch) throws IOException, Failure {
        requireRom();
        if (batch < 1 || batch > 1 << 20) {
            throw new Failure("RUN_TO_CYCLE: batch size " + batch + " out of range 1.." + (1 << 20));
        }
        final Console c = console;
        final CycleDigest d = digest;
        final TraceRing t = trace.ring();
        final long[] buf = new long[batch];
        int n = 0;
        long first = c.cycles() + 1;
        while (c.cycles() < target) {
            beginFrame();
            c.runCycle();
            buf[n++] = d.digest();
            if (t != null) {
                t.observe(c);
            }
            if (c.frame() != frameStart) {
                endFrame();
            }
            if (n == batch) {
                sendDigests(first, buf, n);
                out.flush();
                first += n;
                n = 0;
            }
        }
        if (n > 0) {
            sendDigests(first, buf, n);
        }
        position = c.cycles();
        msg.reset(RUN_END).i32(inputFrame).i64(c.cycles());
        send();
    }

    /**
     * INJECT (version 2): replaces the armed faults with these specs (FaultSpec syntax; the
     * engine letter is ignored, the host has one engine). Each fires once during RUN_STREAM.
     */
    private void inject(Payload p) throws IOException, Failure {
        requireRom();
        int n = p.i32();
        if (n < 0 || n > 4096) {
            throw new Failure("INJECT: bad fault count " + n);
        }
        String[] specs = new String[n];
        List<FaultSpec> parsed = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            specs[i] = p.str();
            FaultSpec f;
            try {
                f = FaultSpec.parse(specs[i]);
            } catch (IllegalArgumentException e) {
                throw new Failure(e.getMessage());
            }
            try {
                Faults.check(List.of(f), console);
            } catch (IllegalArgumentException e) {
                throw new Failure(e.getMessage());
            }
            parsed.add(new FaultSpec(f.kind(), f.cycle(), 0, f.field(), f.address(), f.bit(), f.value()));
        }
        faults = n == 0 ? null : new Faults(parsed);
        faultSpecs = specs;
        faultReported = new boolean[n];
        firedSeen = 0;
        msg.reset(OK).str(n + " faults armed");
        send();
    }

    /**
     * RUN_STREAM (version 2): steps until the stream position reaches {@code target} or, at a
     * frame's end, {@code untilFrame} frames have been run; the digest after every step goes out
     * in DIGESTS messages of up to {@code batch}, each flushed as it is complete (so the
     * controller sees this host's progress batch by batch); at the end of every input frame that
     * is a multiple of {@code checkpointEvery} (if > 0) a SNAPSHOT_DATA follows the digests up to
     * it; FAULT_FIRED follows the digests up to the step a fault fired on (a stall's comes before
     * the sleep). Ends with RUN_END carrying the position.
     */
    private void runStream(long target, int untilFrame, int batch, int checkpointEvery) throws IOException, Failure {
        requireRom();
        if (batch < 1 || batch > 1 << 20) {
            throw new Failure("RUN_STREAM: batch size " + batch + " out of range 1.." + (1 << 20));
        }
        if (checkpointEvery < 0) {
            throw new Failure("RUN_STREAM: negative checkpoint interval " + checkpointEvery);
        }
        if (streamBuf.length < batch) {
            streamBuf = new long[batch];
        }
        if (streamDigests == DIGEST_CHAINED) {
            runChained(target, untilFrame, checkpointEvery);
            return;
        }
        final long[] buf = streamBuf;
        final Console c = console;
        final CycleDigest d = digest;
        final boolean representation = streamDigests == DIGEST_REPRESENTATION;
        final Revisits r = revisits;
        // Reading an instruction catches the PPU up, which representation digests must not see.
        final TraceRing t = representation ? null : trace.ring();
        int n = 0;
        while (position < target && (inFrame || inputFrame < untilFrame)) {
            beginFrame();
            boolean skip = false;
            if (faults != null) {
                long next = c.cycles() + 1;
                long ms = faults.stall(0, next);
                if (ms > 0) {
                    n = flushStream(buf, n);
                    reportFired(1);
                    try {
                        Thread.sleep(ms);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                skip = faults.skip(0, next);
            }
            if (!skip) {
                c.runCycle();
            }
            position++;
            if (faults != null) {
                faults.afterCycle(0, c.cycles(), c);
            }
            r.afterCycle(c.cycles(), c);
            buf[n++] = representation ? d.representation() : d.digest();
            if (t != null) {
                t.observe(c);
            }
            if (faults != null && firedCount() != firedSeen) {
                n = flushStream(buf, n);
                reportFired(0);
            }
            // frameAfterCycle: frame() would catch the PPU up every cycle, which the
            // representation digests must not see (both hosts step alike without it).
            if (c.frameAfterCycle() != frameStart) {
                endFrame();
                if (checkpointEvery > 0 && inputFrame % checkpointEvery == 0) {
                    n = flushStream(buf, n);
                    snapshot();
                }
            }
            if (n == batch) {
                n = flushStream(buf, n);
            }
        }
        flushStream(buf, n);
        msg.reset(RUN_END).i32(inputFrame).i64(position);
        send();
    }

    /**
     * RUN_STREAM with chained records (version 5): stretches to the frame's end or the target,
     * each engine's faults and revisits fired at their cycles inside them
     * ({@link EngineStretch}); each stretch's record goes out alone at its last position (the
     * DIGESTS stream leaves the positions inside it out), FAULT_FIRED after the stretch a fault
     * fired in, a SNAPSHOT_DATA at checkpoint frames' ends.
     */
    private void runChained(long target, int untilFrame, int checkpointEvery) throws IOException, Failure {
        final Console c = console;
        if (stretch == null || stretch.console() != c || stretchFaults != faults || stretchRevisits != revisits) {
            stretchFaults = faults;
            stretchRevisits = revisits;
            stretch = new EngineStretch(0, c, faults != null ? faults : new Faults(List.of()), revisits);
            // A stall's FAULT_FIRED goes out before the host sleeps: the controller then knows the
            // cycle a silent host stopped before.
            stretch.onStall(cycle -> {
                try {
                    reportStall(cycle, position - stallBase);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        final long[] one = new long[1];
        while (position < target && (inFrame || inputFrame < untilFrame)) {
            beginFrame();
            final long cycles = c.cycles();
            final long skips = stretch.skipped();
            stallBase = cycles;
            try {
                one[0] = stretch.stretch(cycles + (target - position), () -> false);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            position += c.cycles() - cycles + stretch.skipped() - skips;
            sendDigests(position, one, 1);
            out.flush();
            if (faults != null && firedCount() != firedSeen) {
                reportFired(0);
            }
            if (c.frameAfterCycle() != frameStart) {
                endFrame();
                if (checkpointEvery > 0 && inputFrame % checkpointEvery == 0) {
                    snapshot();
                }
            }
        }
        msg.reset(RUN_END).i32(inputFrame).i64(position);
        send();
    }

    /** The stretch's start (for a stall's position: position there plus cycles since). */
    private long stallBase;

    /**
     * FAULT_FIRED for the stall fault due at {@code cycle} (fired, not yet reported), flushed: its
     * position is the step it delays ({@code shift}: position minus cycles as the stretch began).
     */
    private void reportStall(long cycle, long shift) throws IOException {
        for (int i = 0; i < faults.size(); i++) {
            if (faults.fired(i) && !faultReported[i]) {
                faultReported[i] = true;
                msg.reset(FAULT_FIRED).str(faultSpecs[i]).i64(cycle + shift).i64(console.cycles());
                send(false);
            }
        }
        firedSeen = firedCount();
        out.flush();
    }

    private int firedCount() {
        int k = 0;
        for (int i = 0; i < faults.size(); i++) {
            if (faults.fired(i)) {
                k++;
            }
        }
        return k;
    }

    /**
     * Sends FAULT_FIRED for each fault that fired since the last report (flushed), with the
     * position of the step it belongs to: the current one ({@code ahead} 0), or for a stall the
     * step it delays ({@code ahead} 1).
     */
    private void reportFired(int ahead) throws IOException {
        int k = 0;
        for (int i = 0; i < faults.size(); i++) {
            if (faults.fired(i)) {
                k++;
                if (!faultReported[i]) {
                    faultReported[i] = true;
                    msg.reset(FAULT_FIRED).str(faultSpecs[i]).i64(position + ahead).i64(console.cycles());
                    send(false);
                }
            }
        }
        firedSeen = k;
        out.flush();
    }

    /** Sends the first {@code n} digests (ending at the current position), flushed; returns 0. */
    private int flushStream(long[] buf, int n) throws IOException {
        if (n > 0) {
            sendDigests(position - n + 1, buf, n);
            out.flush();
        }
        return 0;
    }

    private void sendDigests(long first, long[] buf, int n) throws IOException {
        msg.reset(DIGESTS).i64(first).i32(n);
        for (int i = 0; i < n; i++) {
            msg.i64(buf[i]);
        }
        send(false);
    }

    private void describe() throws IOException, Failure {
        requireRom();
        final Console c = console;
        int pc = c.cpu().instructionPc();
        List<StateEntry> entries = Describer.describe(c);
        msg.reset(DESCRIPTION).i64(c.cycles()).i64(c.frame()).i32(inputFrame).u16(c.ppu().scanline() & 0xFFFF)
                .u16(c.ppu().dot()).u16(pc).str(Disassembler.disassemble(pc, c::peek)).i32(entries.size());
        for (StateEntry e : entries) {
            msg.str(e.path()).u8(e.tag()).i64(e.value());
            if (e.bytes() != null) {
                msg.bytes(e.bytes());
            } else if (e.ints() != null) {
                msg.i32(e.ints().length);
                for (int v : e.ints()) {
                    msg.i32(v);
                }
            }
        }
        send();
    }

    private void observe() throws IOException, Failure {
        requireRom();
        short[] px = console.ppu().frame();
        msg.reset(OBSERVATION).i32(inputFrame).i32(px.length);
        for (short v : px) {
            msg.u16(v);
        }
        msg.bytes(console.ram().array());
        msg.i32(audioCount);
        for (int i = 0; i < audioCount; i++) {
            msg.u16(audio[i]);
        }
        send();
    }

    private void error(String message) throws IOException {
        msg.reset(ERROR).str(message);
        send();
    }

    private void send() throws IOException {
        send(true);
    }

    private void send(boolean flush) throws IOException {
        msg.writeTo(out);
        if (flush) {
            out.flush();
        }
    }
}
