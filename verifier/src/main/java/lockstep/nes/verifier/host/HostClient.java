package lockstep.nes.verifier.host;

import static lockstep.nes.verifier.host.HostProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.ppu.Region;
import lockstep.nes.core.snapshot.RomId;
import lockstep.nes.core.snapshot.SnapshotFormat;
import lockstep.nes.state.StateEntry;

/**
 * The controller's side of one engine host: starts {@code java -cp CLASSPATH
 * lockstep.nes.app.EngineHostMain} as a child process, checks its HELLO, sends requests and
 * reads responses. Requests may be pipelined (sent before earlier answers are read); answers come
 * in order. A reader thread moves messages to a queue, so every wait has a timeout: a host that
 * dies, hangs or speaks another protocol becomes a {@link HostException} of that kind.
 */
public final class HostClient implements AutoCloseable {
    /** The host's handshake. */
    public record Hello(int protocolVersion, int stateFormatVersion, String buildId, String javaVersion) {
    }

    /** A snapshot with the host's input position and the state hash. */
    public record Snapshot(int frame, boolean midFrame, long cycles, byte[] stateHash, byte[] data)
            implements StreamEvent {
        public String stateHashHex() {
            return RomId.hex(stateHash);
        }
    }

    /** One message of a RUN_STREAM answer (protocol version 2). */
    public sealed interface StreamEvent permits Digests, Snapshot, RunEnd, FaultFired {
    }

    /** Per-cycle digests: {@code digests[i]} is the digest after cycle {@code firstCycle + i}. */
    public record Digests(long firstCycle, long[] digests) implements StreamEvent {
    }

    /** End of a run: the next input frame and the cycle count (the stream position for RUN_STREAM). */
    public record RunEnd(int frame, long cycles) implements StreamEvent {
    }

    /** An injected fault fired: its spec as sent, the stream position and the console's cycle count. */
    public record FaultFired(String spec, long position, long cycles) implements StreamEvent {
    }

    /** Where the engine stands and its described state. */
    public record Description(long cycles, long ppuFrame, int frame, int scanline, int dot, int pc,
                              String instruction, List<StateEntry> entries) {
    }

    /** The last frame's observables: picture (9-bit values), CPU RAM, audio samples. */
    public record Observation(int frame, short[] pixels, byte[] ram, short[] audio) {
    }

    private static final Payload EOF = new Payload(-1, new byte[0]);
    private static final int STDERR_LINES = 20;
    /** The verifier's own hosts' handshake may take longer than other answers (a cold JVM on a loaded machine). */
    private static final long MIN_HANDSHAKE_MILLIS = 60_000;

    private final String label;
    private final Process process;
    private final OutputStream toHost;
    private final BlockingQueue<Payload> inbox = new LinkedBlockingQueue<>();
    private final ArrayDeque<String> stderrTail = new ArrayDeque<>();
    private final long timeoutMillis;
    private final Message msg = new Message(OK);
    private volatile String readError;
    private final Thread stderrReader;
    private Hello hello;
    /** What the host reported of its cheats at the last LOAD_ROM (see {@link #cheatsLoaded}). */
    private String cheatsLoaded;
    private volatile boolean dead;

    private HostClient(String label, Process process, long timeoutMillis) {
        this.label = label;
        this.process = process;
        this.timeoutMillis = timeoutMillis;
        this.toHost = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
        Thread reader = new Thread(this::readLoop, label + "-host-reader");
        reader.setDaemon(true);
        reader.start();
        stderrReader = new Thread(this::stderrLoop, label + "-host-stderr");
        stderrReader.setDaemon(true);
        stderrReader.start();
    }

    /**
     * Starts a host from {@code classpath} (a build's jar, or a class path) and checks its
     * handshake.
     *
     * @param label         "baseline" or "candidate", used in every message
     * @param timeoutMillis the longest wait for any one answer
     */
    public static HostClient start(String label, String classpath, long timeoutMillis) throws HostException {
        return start(label, classpath, List.of(), timeoutMillis);
    }

    /**
     * Starts a build's host, as a person asked for it with a timeout: every wait, the HELLO
     * handshake's included, is at most {@code timeoutMillis} (a host that stays silent is hung
     * after that long, however cold its JVM).
     */
    public static HostClient start(String label, String classpath, List<String> jvmOptions, long timeoutMillis)
            throws HostException {
        return start(label, classpath, MAIN_CLASS, jvmOptions, timeoutMillis, timeoutMillis);
    }

    /**
     * The engine hosts' JVM options (why: docs/design/performance.md, "Engine hosts"): no
     * uncommon traps (PerMethodTrapLimit=0: branches the profile calls never taken are compiled
     * too), so C2 compiles the engine's big methods once instead of again after each
     * deoptimisation. Tiered, so that a short run gets C1's code at once.
     */
    public static final List<String> JVM_OPTIONS = List.of("-XX:+UseSerialGC", "-Xss4m", "-XX:PerMethodTrapLimit=0");

    /**
     * {@link #JVM_OPTIONS} for long runs of a controller without stall detection (the canary):
     * C2 only, compiling in the foreground ({@code -Xbatch}): a method waits for its compiled code
     * instead of being interpreted meanwhile, which on a machine with no spare core only slowed
     * the compiler down. A host is then silent while a big method compiles (up to about a second
     * on a loaded machine), which processes mode would take for a stall, and a run of a few
     * hundred frames is slower than tiered.
     */
    public static final List<String> BATCH_JVM_OPTIONS = java.util.stream.Stream
            .concat(JVM_OPTIONS.stream(), java.util.stream.Stream.of("-XX:-TieredCompilation", "-Xbatch")).toList();

    /**
     * Environment variable with extra JVM options for every host (whitespace-separated, after
     * the controller's own, so they can override them), e.g. to profile a host with
     * {@code -XX:StartFlightRecording=filename=/tmp/h.jfr -Xlog:jfr+startup=error} (an option
     * that makes the JVM print to stdout breaks the protocol).
     */
    public static final String JAVA_OPTIONS_ENV = "LOCKSTEP_HOST_JAVA_OPTIONS";

    /** Starts a host whose entry point is {@code mainClass} (tests use the verifier's own). */
    public static HostClient start(String label, String classpath, String mainClass, List<String> jvmOptions,
                                   long timeoutMillis) throws HostException {
        return start(label, classpath, mainClass, jvmOptions, timeoutMillis, Math.max(timeoutMillis, MIN_HANDSHAKE_MILLIS));
    }

    private static HostClient start(String label, String classpath, String mainClass, List<String> jvmOptions,
                                    long timeoutMillis, long handshakeMillis) throws HostException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmOptions);
        String extra = System.getenv(JAVA_OPTIONS_ENV);
        if (extra != null && !extra.isBlank()) {
            cmd.addAll(Arrays.asList(extra.strip().split("\\s+")));
        }
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(mainClass);
        Process p;
        try {
            p = new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            throw new HostException(HostException.Kind.CRASHED, label, "cannot start the host JVM (" + e.getMessage() + ")");
        }
        HostClient c = new HostClient(label, p, timeoutMillis);
        try {
            c.handshake(handshakeMillis);
        } catch (HostException e) {
            c.kill();
            throw e;
        }
        return c;
    }

    public String label() {
        return label;
    }

    public Hello hello() {
        return hello;
    }

    public long pid() {
        return process.pid();
    }

    private void readLoop() {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(process.getInputStream(), 1 << 16))) {
            while (true) {
                Payload p = HostProtocol.read(in);
                if (p == null) {
                    break;
                }
                inbox.add(p);
            }
        } catch (IOException e) {
            readError = e.getMessage();
        }
        inbox.add(EOF);
    }

    private void stderrLoop() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (stderrTail) {
                    stderrTail.add(line);
                    if (stderrTail.size() > STDERR_LINES) {
                        stderrTail.removeFirst();
                    }
                }
            }
        } catch (IOException e) {
            // The process is gone; what was read is kept.
        }
    }

    private String stderrText() {
        synchronized (stderrTail) {
            if (stderrTail.isEmpty()) {
                return "";
            }
            return "; its stderr ends: " + String.join(" | ", stderrTail);
        }
    }

    private void handshake(long handshakeMillis) throws HostException {
        Payload p = next("the HELLO handshake", handshakeMillis);
        if (p.type() != HELLO) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "expected HELLO, got " + typeName(p.type())
                    + " (not an engine host of this protocol)");
        }
        try {
            byte[] magic = p.raw(MAGIC.length);
            if (!Arrays.equals(magic, MAGIC)) {
                throw new HostException(HostException.Kind.PROTOCOL, label, "bad handshake magic (not an engine host)");
            }
            int version = p.u16();
            if (version < MIN_VERSION || version > VERSION) {
                kill();
                throw new HostException(HostException.Kind.PROTOCOL, label, "speaks engine-host protocol version "
                        + version + ", this controller speaks versions " + MIN_VERSION + " to " + VERSION);
            }
            hello = new Hello(version, p.i32(), p.str(), p.str());
        } catch (IOException e) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "malformed HELLO (" + e.getMessage() + ")");
        }
    }

    /** The next message, waiting at most the timeout. */
    private Payload next(String waitingFor) throws HostException {
        return next(waitingFor, timeoutMillis);
    }

    private Payload next(String waitingFor, long timeoutMillis) throws HostException {
        Payload p = poll(waitingFor, timeoutMillis);
        if (p == null) {
            kill();
            throw new HostException(HostException.Kind.TIMEOUT, label, "hung: no answer within " + timeoutMillis
                    + " ms while waiting for " + waitingFor + " (killed)" + stderrText());
        }
        return p;
    }

    /** The next message, or null if none came within {@code timeoutMillis} (the host lives on). */
    private Payload poll(String waitingFor, long timeoutMillis) throws HostException {
        if (dead) {
            throw new HostException(HostException.Kind.CRASHED, label, "host already stopped");
        }
        Payload p;
        try {
            p = timeoutMillis <= 0 ? inbox.poll() : inbox.poll(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill();
            throw new HostException(HostException.Kind.CRASHED, label, "interrupted waiting for " + waitingFor);
        }
        if (p == null) {
            return null;
        }
        if (p == EOF) {
            dead = true;
            String why = readError != null ? "sent a malformed stream (" + readError + ")" : "closed its output";
            Integer code = null;
            try {
                if (process.waitFor(2, TimeUnit.SECONDS)) {
                    code = process.exitValue();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (code == null) {
                process.destroyForcibly();
            }
            // Let the stderr reader reach the end of the dead process's stderr.
            try {
                stderrReader.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new HostException(readError != null ? HostException.Kind.PROTOCOL : HostException.Kind.CRASHED, label,
                    "crashed: " + why + (code != null ? ", exit code " + code : "") + " while waiting for "
                            + waitingFor + stderrText());
        }
        return p;
    }

    /** The next message, which must be of {@code type} (an ERROR becomes a HOST_ERROR exception). */
    private Payload expect(int type, String waitingFor) throws HostException {
        Payload p = next(waitingFor);
        if (p.type() == ERROR) {
            String m;
            try {
                m = p.str();
            } catch (IOException e) {
                m = "(unreadable error message)";
            }
            throw new HostException(HostException.Kind.HOST_ERROR, label, m);
        }
        if (p.type() != type) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "expected " + typeName(type) + " while waiting for "
                    + waitingFor + ", got " + typeName(p.type()));
        }
        return p;
    }

    private HostException malformed(int type, IOException e) {
        return new HostException(HostException.Kind.PROTOCOL, label, "malformed " + typeName(type) + " (" + e.getMessage() + ")");
    }

    private void send() throws HostException {
        try {
            msg.writeTo(toHost);
            toHost.flush();
        } catch (IOException e) {
            throw new HostException(HostException.Kind.CRASHED, label, "crashed: cannot send " + typeName(msg.type())
                    + " (" + e.getMessage() + ")" + stderrText());
        }
    }

    // ---- Requests (send*) and their answers (await*); call()s do both.

    public String loadRom(String name, byte[] rom) throws HostException {
        return loadRom(name, rom, null);
    }

    /** Loads {@code rom} to run on {@code region}'s console (null: the one its header names). */
    public String loadRom(String name, byte[] rom, Region region) throws HostException {
        return loadRom(name, rom, region, List.of());
    }

    /**
     * Loads {@code rom} to run on {@code region}'s console (null: the one its header names) with
     * {@code cheats} in effect; returns the ROM's SHA-256. What cheats the host runs with is
     * {@link #cheatsLoaded} after. A host below {@link HostProtocol#CHEATS_VERSION} is not sent
     * cheats it could not read.
     */
    public String loadRom(String name, byte[] rom, Region region, List<Cheat> cheats) throws HostException {
        return loadRom(name, rom, region, cheats, null, null);
    }

    /**
     * As {@link #loadRom(String, byte[], Region, List)}, a disk image run with {@code fdsBios}
     * (the BIOS's bytes; null: the host's config folder's) and {@code diskSide} in the drive at
     * power-on (as the user wrote it, "1B"; null: 1A). A host below
     * {@link HostProtocol#DISK_VERSION} cannot take them and is refused in one line rather than
     * left to run another BIOS or side.
     */
    public String loadRom(String name, byte[] rom, Region region, List<Cheat> cheats, byte[] fdsBios, String diskSide)
            throws HostException {
        final boolean withDisk = fdsBios != null || diskSide != null;
        if (withDisk && hello.protocolVersion() < HostProtocol.DISK_VERSION) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "speaks engine-host protocol version "
                    + hello.protocolVersion() + ", below " + HostProtocol.DISK_VERSION
                    + ", and cannot take --fds-bios or --disk-side");
        }
        final boolean withCheats = !cheats.isEmpty() && hello.protocolVersion() >= HostProtocol.CHEATS_VERSION;
        msg.reset(LOAD_ROM).str(name).bytes(rom);
        if (region != null || withCheats || withDisk) {
            msg.str(region != null ? region.id() : "");
        }
        if (withCheats || withDisk) {
            msg.str(withCheats ? HostProtocol.cheatCodes(cheats) : "");
        }
        if (withDisk) {
            msg.bytes(fdsBios != null ? fdsBios : new byte[0]).str(diskSide != null ? diskSide : "");
        }
        send();
        Payload p = expect(OK, "LOAD_ROM");
        try {
            final String sha = p.str();
            cheatsLoaded = p.remaining() > 0 ? p.str() : null;
            return sha;
        } catch (IOException e) {
            throw malformed(OK, e);
        }
    }

    /**
     * The cheats the host said it runs with at the last LOAD_ROM ({@link HostProtocol#cheatCodes}
     * form; empty: none), or null for a host below {@link HostProtocol#CHEATS_VERSION}, which says
     * nothing and runs without cheats.
     */
    public String cheatsLoaded() {
        return cheatsLoaded;
    }

    /** Loads movie input: per frame its commands and the two pads' buttons. */
    public void loadMovie(int[] commands, int[] port0, int[] port1) throws HostException {
        msg.reset(LOAD_MOVIE).i32(commands.length);
        for (int i = 0; i < commands.length; i++) {
            msg.u8(commands[i]).u8(port0[i]).u8(port1[i]);
        }
        send();
        expect(OK, "LOAD_MOVIE");
    }

    /**
     * HASHES (version 3): selects the observable hash scheme of the FRAME records that follow
     * ({@link HostProtocol#HASH_FNV1A}, {@link HostProtocol#HASH_XXH64}). Answer with
     * {@link #awaitHashes}.
     */
    public void sendHashes(int scheme) throws HostException {
        if (hello.protocolVersion() < 3) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "speaks engine-host protocol version "
                    + hello.protocolVersion() + ", HASHES needs version 3");
        }
        msg.reset(HASHES).u8(scheme);
        send();
    }

    public void awaitHashes() throws HostException {
        expect(OK, "HASHES");
    }

    public void sendRunFrames(int n) throws HostException {
        msg.reset(RUN_FRAMES).i32(n);
        send();
    }

    /** Reads the n FRAME records and the RUN_END of a {@link #sendRunFrames}. */
    public List<FrameRecord> awaitFrames(int n) throws HostException {
        List<FrameRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Payload p = expect(FRAME, "frame record " + (i + 1) + " of " + n);
            try {
                out.add(FrameRecord.read(p));
            } catch (IOException e) {
                throw malformed(FRAME, e);
            }
        }
        awaitRunEnd("the end of RUN_FRAMES");
        return out;
    }

    public List<FrameRecord> runFrames(int n) throws HostException {
        sendRunFrames(n);
        return awaitFrames(n);
    }

    private RunEnd awaitRunEnd(String what) throws HostException {
        Payload p = expect(RUN_END, what);
        try {
            return new RunEnd(p.i32(), p.i64());
        } catch (IOException e) {
            throw malformed(RUN_END, e);
        }
    }

    public void sendSnapshot() throws HostException {
        msg.reset(SNAPSHOT);
        send();
    }

    public Snapshot awaitSnapshot() throws HostException {
        Payload p = expect(SNAPSHOT_DATA, "SNAPSHOT");
        try {
            return new Snapshot(p.i32(), p.u8() != 0, p.i64(), p.raw(32), p.bytes());
        } catch (IOException e) {
            throw malformed(SNAPSHOT_DATA, e);
        }
    }

    public Snapshot snapshot() throws HostException {
        sendSnapshot();
        return awaitSnapshot();
    }

    public void sendRestore(Snapshot s) throws HostException {
        msg.reset(RESTORE).i32(s.frame()).u8(s.midFrame() ? 1 : 0).bytes(s.data());
        send();
    }

    public void awaitRestore() throws HostException {
        expect(OK, "RESTORE");
    }

    public void restore(Snapshot s) throws HostException {
        sendRestore(s);
        awaitRestore();
    }

    public void sendRunToCycle(long cycle, int batch) throws HostException {
        msg.reset(RUN_TO_CYCLE).i64(cycle).i32(batch);
        send();
    }

    /** The next digest batch of a {@link #sendRunToCycle}, or null at its RUN_END. */
    public Digests awaitDigests() throws HostException {
        Payload p = next("per-cycle digests");
        if (p.type() == RUN_END) {
            return null;
        }
        if (p.type() != DIGESTS) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "expected DIGESTS or RUN_END, got "
                    + typeName(p.type()));
        }
        try {
            return readDigests(p);
        } catch (IOException e) {
            throw malformed(DIGESTS, e);
        }
    }

    private static Digests readDigests(Payload p) throws IOException {
        long first = p.i64();
        int n = p.i32();
        if (n < 0 || (long) n * 8 != p.remaining()) {
            throw new IOException("count " + n + " does not match " + p.remaining() + " bytes");
        }
        long[] d = new long[n];
        for (int i = 0; i < n; i++) {
            d[i] = p.i64();
        }
        return new Digests(first, d);
    }

    /** Runs to {@code cycle} discarding the digests. */
    public void runToCycle(long cycle) throws HostException {
        sendRunToCycle(cycle, 1 << 16);
        while (awaitDigests() != null) {
            // discard
        }
    }

    /** Arms these one-shot faults (FaultSpec syntax) in place of any armed before (version 2). */
    public void inject(List<String> specs) throws HostException {
        msg.reset(INJECT).i32(specs.size());
        for (String f : specs) {
            msg.str(f);
        }
        send();
        expect(OK, "INJECT");
    }

    /**
     * STREAM_DIGESTS (version 4): the digests the following RUN_STREAMs send
     * ({@link HostProtocol#DIGEST_PRESENT}, the default, or {@link HostProtocol#DIGEST_REPRESENTATION}).
     */
    public void streamDigests(int kind) throws HostException {
        requireVersion(4, "STREAM_DIGESTS");
        msg.reset(STREAM_DIGESTS).u8(kind);
        send();
        expect(OK, "STREAM_DIGESTS");
    }

    /**
     * REVISIT (version 4): the console cycles after which the host's engine is revisited during
     * RUN_STREAM, each once (where its partner's state faults fire), in place of any armed before.
     */
    public void revisit(long[] cycles) throws HostException {
        requireVersion(4, "REVISIT");
        msg.reset(REVISIT).i32(cycles.length);
        for (long c : cycles) {
            msg.i64(c);
        }
        send();
        expect(OK, "REVISIT");
    }

    /** True when the host records and sends the instructions it runs (TRACE, version 6). */
    public boolean traces() {
        return hello.protocolVersion() >= TRACE_VERSION;
    }

    /**
     * TRACE (version 6): asks for the instructions recorded so far; from now on the host records
     * the last {@code capacity} of its cycle-by-cycle runs (RESTORE starts the record afresh).
     */
    public void sendTrace(int capacity) throws HostException {
        requireVersion(TRACE_VERSION, "TRACE");
        msg.reset(TRACE).i32(capacity);
        send();
    }

    /** The answer to {@link #sendTrace}: the recorded instructions, oldest first, in nestest's log form. */
    public List<String> awaitTrace() throws HostException {
        Payload p = expect(TRACE_LINES, "TRACE");
        try {
            int n = p.i32();
            if (n < 0 || n > p.remaining() / 2) {
                throw new IOException("bad trace line count " + n);
            }
            List<String> lines = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                lines.add(p.str());
            }
            return lines;
        } catch (IOException e) {
            throw malformed(TRACE_LINES, e);
        }
    }

    private void requireVersion(int version, String request) throws HostException {
        if (hello.protocolVersion() < version) {
            throw new HostException(HostException.Kind.PROTOCOL, label, "speaks engine-host protocol version "
                    + hello.protocolVersion() + ", " + request + " needs version " + version);
        }
    }

    /** RUN_STREAM (version 2): read its answer with {@link #pollStream}. */
    public void sendRunStream(long position, int untilFrame, int batch, int checkpointEvery) throws HostException {
        msg.reset(RUN_STREAM).i64(position).i32(untilFrame).i32(batch).i32(checkpointEvery);
        send();
    }

    /**
     * The next message of a RUN_STREAM answer, or null if none came within {@code timeoutMillis}
     * (0: do not wait). A dead host, an ERROR or an unexpected message is a {@link HostException}.
     */
    public StreamEvent pollStream(long timeoutMillis) throws HostException {
        Payload p = poll("streamed digests", timeoutMillis);
        if (p == null) {
            return null;
        }
        try {
            switch (p.type()) {
                case DIGESTS -> {
                    return readDigests(p);
                }
                case SNAPSHOT_DATA -> {
                    return new Snapshot(p.i32(), p.u8() != 0, p.i64(), p.raw(32), p.bytes());
                }
                case RUN_END -> {
                    return new RunEnd(p.i32(), p.i64());
                }
                case FAULT_FIRED -> {
                    return new FaultFired(p.str(), p.i64(), p.i64());
                }
                case ERROR -> throw new HostException(HostException.Kind.HOST_ERROR, label, p.str());
                default -> throw new HostException(HostException.Kind.PROTOCOL, label,
                        "unexpected " + typeName(p.type()) + " in a RUN_STREAM answer");
            }
        } catch (IOException e) {
            throw malformed(p.type(), e);
        }
    }

    /** Like {@link #pollStream} but a silence of the host's timeout is a TIMEOUT failure (it is killed). */
    public StreamEvent awaitStream() throws HostException {
        StreamEvent e = pollStream(timeoutMillis);
        if (e == null) {
            kill();
            throw new HostException(HostException.Kind.TIMEOUT, label, "hung: no answer within " + timeoutMillis
                    + " ms while waiting for streamed digests (killed)" + stderrText());
        }
        return e;
    }

    /** Kills the host process now (no QUIT). */
    public void destroy() {
        kill();
    }

    public boolean alive() {
        return !dead && process.isAlive();
    }

    public void sendDescribe() throws HostException {
        msg.reset(DESCRIBE);
        send();
    }

    public Description awaitDescription() throws HostException {
        Payload p = expect(DESCRIPTION, "DESCRIBE");
        try {
            long cycles = p.i64();
            long ppuFrame = p.i64();
            int frame = p.i32();
            int scanline = (short) p.u16();
            int dot = p.u16();
            int pc = p.u16();
            String ins = p.str();
            int n = p.i32();
            List<StateEntry> entries = new ArrayList<>(Math.max(0, Math.min(n, 1 << 16)));
            for (int i = 0; i < n; i++) {
                String path = p.str();
                int tag = p.u8();
                long value = p.i64();
                byte[] bytes = null;
                int[] ints = null;
                if (tag == SnapshotFormat.TAG_BYTES) {
                    bytes = p.bytes();
                } else if (tag == SnapshotFormat.TAG_INTS) {
                    int m = p.i32();
                    if (m < 0 || (long) m * 4 > p.remaining()) {
                        throw new IOException("bad ints length " + m);
                    }
                    ints = new int[m];
                    for (int k = 0; k < m; k++) {
                        ints[k] = p.i32();
                    }
                }
                entries.add(new StateEntry(path, tag, value, bytes, ints));
            }
            return new Description(cycles, ppuFrame, frame, scanline, dot, pc, ins, entries);
        } catch (IOException e) {
            throw malformed(DESCRIPTION, e);
        }
    }

    public void sendObserve() throws HostException {
        msg.reset(OBSERVE);
        send();
    }

    public Observation awaitObservation() throws HostException {
        Payload p = expect(OBSERVATION, "OBSERVE");
        try {
            int frame = p.i32();
            int n = p.i32();
            if (n < 0 || (long) n * 2 > p.remaining()) {
                throw new IOException("bad pixel count " + n);
            }
            short[] px = new short[n];
            for (int i = 0; i < n; i++) {
                px[i] = (short) p.u16();
            }
            byte[] ram = p.bytes();
            int m = p.i32();
            if (m < 0 || (long) m * 2 > p.remaining()) {
                throw new IOException("bad sample count " + m);
            }
            short[] audio = new short[m];
            for (int i = 0; i < m; i++) {
                audio[i] = (short) p.u16();
            }
            return new Observation(frame, px, ram, audio);
        } catch (IOException e) {
            throw malformed(OBSERVATION, e);
        }
    }

    /** Asks the host to quit and waits briefly for it; kills it if it does not. */
    @Override
    public void close() {
        if (!dead && process.isAlive()) {
            try {
                msg.reset(QUIT);
                msg.writeTo(toHost);
                toHost.flush();
                toHost.close();
                process.waitFor(2, TimeUnit.SECONDS);
            } catch (IOException e) {
                // Already gone.
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        kill();
    }

    /**
     * Kills the host at once, from any thread, without a word on the pipe: a request waiting for
     * its answer on another thread then fails as a crashed host. For a caller that must stop a
     * run now (a farm job whose lease is lost).
     */
    public void abort() {
        kill();
    }

    private void kill() {
        dead = true;
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
