package lockstep.nes.verifier.host;

import static lockstep.nes.verifier.host.HostProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.security.MessageDigest;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.cpu.Disassembler;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.state.CycleDigest;
import lockstep.nes.core.state.Describer;
import lockstep.nes.core.state.RomId;
import lockstep.nes.core.state.SnapshotException;
import lockstep.nes.core.state.SnapshotFormat;
import lockstep.nes.core.state.Snapshots;
import lockstep.nes.core.state.StateEntry;

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

    private short[] audio = new short[4096];
    private int audioCount;
    private long audioHash = hashEnd(hashStart(), 0);

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
        EngineHost host = new EngineHost(System.in, protocolOut, buildId(version));
        try {
            return host.serve();
        } catch (IOException e) {
            System.err.println("engine-host: " + e.getMessage());
            return 3;
        }
    }

    /** "sha256:<hex of this build's jar>" (or the classes directory) plus the version. */
    public static String buildId(String version) {
        String where = "unknown";
        try {
            CodeSource cs = EngineHost.class.getProtectionDomain().getCodeSource();
            if (cs != null && cs.getLocation() != null) {
                Path p = Path.of(cs.getLocation().toURI());
                if (Files.isRegularFile(p)) {
                    MessageDigest md = RomId.sha256();
                    try (InputStream s = Files.newInputStream(p)) {
                        byte[] b = new byte[1 << 16];
                        int n;
                        while ((n = s.read(b)) > 0) {
                            md.update(b, 0, n);
                        }
                    }
                    where = "sha256:" + RomId.hex(md.digest());
                } else {
                    where = "classes:" + p;
                }
            }
        } catch (IOException | URISyntaxException | SecurityException e) {
            where = "unknown (" + e.getMessage() + ")";
        }
        return version + " " + where;
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
            case LOAD_ROM -> loadRom(p.str(), p.bytes());
            case LOAD_MOVIE -> loadMovie(p);
            case RUN_FRAMES -> runFrames(p.i32());
            case SNAPSHOT -> snapshot();
            case RESTORE -> restore(p.i32(), p.u8() != 0, p.bytes());
            case RUN_TO_CYCLE -> runToCycle(p.i64(), p.i32());
            case DESCRIBE -> describe();
            case OBSERVE -> observe();
            case QUIT -> {
                msg.reset(BYE);
                send();
                return false;
            }
            default -> throw new Failure("unknown request type " + typeName(p.type()));
        }
        return true;
    }

    private void loadRom(String name, byte[] rom) throws IOException, Failure {
        Cartridge c;
        try {
            c = Cartridge.parse(name, rom);
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
        msg.reset(OK).str(RomId.hex(snapshots.romSha256()));
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
            c.setButtons(0, port0[f] & 0xFF);
            c.setButtons(1, port1[f] & 0xFF);
        } else {
            c.setButtons(0, 0);
            c.setButtons(1, 0);
        }
        frameStart = c.frame();
        inFrame = true;
    }

    private void endFrame() {
        inFrame = false;
        inputFrame++;
        collectAudio();
    }

    /** Takes the samples the frame produced (and their hash). */
    private void collectAudio() {
        var ao = console.apu().audio();
        ao.flush();
        int n = ao.available();
        if (n > audio.length) {
            audio = new short[Math.max(n, audio.length * 2)];
        }
        audioCount = ao.read(audio, 0, n);
        audioHash = hashSamples(audio, audioCount);
    }

    private void runFrames(int n) throws IOException, Failure {
        requireRom();
        if (n < 0) {
            throw new Failure("RUN_FRAMES: negative count " + n);
        }
        final Console c = console;
        for (int i = 0; i < n; i++) {
            beginFrame();
            final long start = frameStart;
            while (c.frame() == start) {
                c.runCycle();
            }
            int index = inputFrame;
            endFrame();
            msg.reset(FRAME).i32(index).i64(c.cycles()).i64(c.frame())
                    .i64(hashPixels(c.ppu().frame()))
                    .i64(hashBytes(c.ram().array()))
                    .i64(audioHash).i32(audioCount);
            stateHash();
            send(false);
        }
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
        frameStart = console.frame();
        audioCount = 0;
        audioHash = hashEnd(hashStart(), 0);
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
        final long[] buf = new long[batch];
        int n = 0;
        long first = c.cycles() + 1;
        while (c.cycles() < target) {
            beginFrame();
            c.runCycle();
            buf[n++] = d.digest();
            if (c.frame() != frameStart) {
                endFrame();
            }
            if (n == batch) {
                sendDigests(first, buf, n);
                first += n;
                n = 0;
            }
        }
        if (n > 0) {
            sendDigests(first, buf, n);
        }
        msg.reset(RUN_END).i32(inputFrame).i64(c.cycles());
        send();
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
