package lockstep.nes.verifier.host;

import static lockstep.nes.verifier.host.HostProtocol.*;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.RomId;
import lockstep.nes.core.snapshot.SnapshotFormat;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The engine host served in-process over pipes, driven message by message. */
class EngineHostTest {
    private OutputStream toHost;
    private DataInputStream fromHost;
    private Thread thread;
    private final AtomicInteger exit = new AtomicInteger(-1);

    @BeforeEach
    void start() throws IOException {
        PipedInputStream hostIn = new PipedInputStream(1 << 20);
        toHost = new PipedOutputStream(hostIn);
        PipedInputStream ours = new PipedInputStream(1 << 20);
        PipedOutputStream hostOut = new PipedOutputStream(ours);
        fromHost = new DataInputStream(ours);
        EngineHost host = new EngineHost(hostIn, hostOut, "test-build");
        thread = new Thread(() -> {
            try {
                exit.set(host.serve());
                hostOut.close();
            } catch (IOException e) {
                exit.set(99);
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    @AfterEach
    void stop() throws Exception {
        toHost.close();
        thread.join(5000);
    }

    private void send(Message m) throws IOException {
        m.writeTo(toHost);
        toHost.flush();
    }

    private Payload next() throws IOException {
        Payload p = HostProtocol.read(fromHost);
        if (p == null) {
            throw new IOException("host closed its output");
        }
        return p;
    }

    private Payload expect(int type) throws IOException {
        Payload p = next();
        if (p.type() == ERROR) {
            throw new AssertionError("host error: " + p.str());
        }
        assertEquals(typeName(type), typeName(p.type()));
        return p;
    }

    private String expectError() throws IOException {
        Payload p = next();
        assertEquals("ERROR", typeName(p.type()));
        return p.str();
    }

    private Payload hello() throws IOException {
        Payload h = expect(HELLO);
        assertArrayEquals(MAGIC, h.raw(8));
        assertEquals(VERSION, h.u16());
        assertEquals(SnapshotFormat.VERSION, h.i32());
        assertEquals("test-build", h.str());
        return h;
    }

    private void loadDemo() throws IOException {
        send(new Message(LOAD_ROM).str(DemoRom.NAME).bytes(DemoRom.bytes()));
        assertEquals(RomId.hex(RomId.sha256(DemoRom.cartridge())), expect(OK).str());
    }

    private List<FrameRecord> runFrames(int n) throws IOException {
        send(new Message(RUN_FRAMES).i32(n));
        List<FrameRecord> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(FrameRecord.read(expect(FRAME)));
        }
        expect(RUN_END);
        return out;
    }

    @Test
    void handshakeThenErrorsForBadRequestsWithoutDying() throws Exception {
        hello();
        send(new Message(RUN_FRAMES).i32(1));
        assertTrue(expectError().contains("no ROM loaded"));
        send(new Message(LOAD_ROM).str("junk.nes").bytes(new byte[] {1, 2, 3}));
        assertTrue(expectError().startsWith("junk.nes"));
        send(new Message(0x33));
        assertTrue(expectError().contains("unknown request"));
        loadDemo();
        send(new Message(RESTORE).i32(0).u8(0).bytes(new byte[] {9, 9, 9}));
        assertTrue(expectError().contains("RESTORE"));
        // Still serving, and the failed restore left the engine as it was.
        assertEquals(0, runFrames(1).get(0).frame());
        send(new Message(QUIT));
        expect(BYE);
        thread.join(5000);
        assertEquals(0, exit.get());
    }

    @Test
    void frameRecordsMatchTheEngineRunInProcess() throws Exception {
        hello();
        loadDemo();
        List<FrameRecord> recs = runFrames(3);
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        Snapshots snaps = new Snapshots(c);
        for (int i = 0; i < 3; i++) {
            c.runFrame();
            FrameRecord r = recs.get(i);
            assertEquals(i, r.frame());
            assertEquals(c.cycles(), r.cycles());
            assertEquals(c.frame(), r.ppuFrame());
            assertEquals(hashPixels(c.ppu().frame()), r.pixelHash());
            assertEquals(hashBytes(c.ram().array()), r.ramHash());
            assertEquals(snaps.stateHash(), r.stateHashHex());
            assertTrue(r.audioSamples() > 700 && r.audioSamples() < 900, "~800 samples a frame: " + r.audioSamples());
        }
        // Per-cycle digests are the engine's CycleDigest after each cycle.
        CycleDigest d = new CycleDigest(c);
        long target = c.cycles() + 100;
        send(new Message(RUN_TO_CYCLE).i64(target).i32(64));
        int seen = 0;
        Payload p;
        while ((p = next()).type() == DIGESTS) {
            long first = p.i64();
            int n = p.i32();
            for (int i = 0; i < n; i++) {
                c.runCycle();
                assertEquals(first + i, c.cycles());
                assertEquals(d.digest(), p.i64(), "digest after cycle " + c.cycles());
                seen++;
            }
        }
        assertEquals("RUN_END", typeName(p.type()));
        assertEquals(100, seen);
    }

    private List<String> trace(int capacity) throws IOException {
        send(new Message(TRACE).i32(capacity));
        Payload p = expect(TRACE_LINES);
        int n = p.i32();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            lines.add(p.str());
        }
        return lines;
    }

    private void drainRun() throws IOException {
        Payload p;
        while ((p = next()).type() == DIGESTS || p.type() == SNAPSHOT_DATA) {
            // digests not looked at here
        }
        assertEquals("RUN_END", typeName(p.type()));
    }

    @Test
    void tracesTheLastInstructionsOfTheRunsAfterItAskedOnly() throws Exception {
        hello();
        loadDemo();
        send(new Message(TRACE).i32(-1));
        assertTrue(expectError().contains("TRACE: capacity -1"));
        // Nothing is recorded until asked.
        send(new Message(RUN_TO_CYCLE).i64(20_000).i32(1024));
        drainRun();
        assertEquals(List.of(), trace(8));
        send(new Message(RUN_STREAM).i64(30_000).i32(1000).i32(1024).i32(0));
        drainRun();
        List<String> lines = trace(0);
        // The same instructions, as the tracer shows them, on an engine run alike.
        Console c = Console.create(DemoRom.cartridge());
        List<String> expected = new ArrayList<>();
        new lockstep.nes.core.trace.Tracer(c, x -> { }).trace(15_000, l -> {
            if (l.cycle() >= 20_000 && l.cycle() <= 30_000) {
                expected.add(l.nestest());
            }
        });
        assertEquals(8, lines.size(), lines.toString());
        assertEquals(expected.subList(expected.size() - 8, expected.size()), lines);
        // Turned off: the next run records nothing.
        send(new Message(RUN_TO_CYCLE).i64(31_000).i32(1024));
        drainRun();
        assertEquals(List.of(), trace(4));
        send(new Message(QUIT));
        expect(BYE);
    }

    @Test
    void streamsRepresentationDigestsAndRevisitsWhenAsked() throws Exception {
        hello();
        loadDemo();
        send(new Message(STREAM_DIGESTS).u8(9));
        assertTrue(expectError().contains("unknown digest kind 9"));
        send(new Message(STREAM_DIGESTS).u8(DIGEST_REPRESENTATION));
        expect(OK);
        long revisitAt = 40_000;
        send(new Message(REVISIT).i32(1).i64(revisitAt));
        expect(OK);
        // The same engine in process, stepped as RUN_STREAM steps it (audio taken at frame ends).
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        new Snapshots(c);
        CycleDigest d = new CycleDigest(c);
        long target = 70_000;
        send(new Message(RUN_STREAM).i64(target).i32(100).i32(4096).i32(0));
        long frame = c.frameAfterCycle();
        int seen = 0;
        boolean behind = false;
        Payload p;
        while ((p = next()).type() == DIGESTS) {
            long first = p.i64();
            int n = p.i32();
            for (int i = 0; i < n; i++) {
                c.runCycle();
                if (c.cycles() == revisitAt) {
                    c.revisit();
                }
                assertEquals(first + i, c.cycles());
                behind |= c.apu().syncedCycle() < c.cycles();
                assertEquals(d.representation(), p.i64(), "representation digest after cycle " + c.cycles());
                seen++;
                if (c.frameAfterCycle() != frame) {
                    frame = c.frameAfterCycle();
                    c.apu().audio();
                }
            }
        }
        assertEquals("RUN_END", typeName(p.type()));
        assertEquals(target, c.cycles());
        assertTrue(seen > 60_000, "digests: " + seen);
        assertTrue(behind, "the APU ran behind: these are not present-state digests");
        // Back to present-state digests.
        send(new Message(STREAM_DIGESTS).u8(DIGEST_PRESENT));
        expect(OK);
        send(new Message(RUN_STREAM).i64(target + 10).i32(100).i32(4096).i32(0));
        p = expect(DIGESTS);
        p.i64();
        assertEquals(10, p.i32());
        for (int i = 0; i < 10; i++) {
            c.runCycle();
            assertEquals(d.digest(), p.i64());
        }
        expect(RUN_END);
    }

    @Test
    void restoreRepeatsTheSameFrames() throws Exception {
        hello();
        loadDemo();
        runFrames(5);
        send(new Message(SNAPSHOT));
        Payload s = expect(SNAPSHOT_DATA);
        int frame = s.i32();
        boolean mid = s.u8() != 0;
        s.i64();
        s.raw(32);
        byte[] snap = s.bytes();
        assertEquals(5, frame);
        List<FrameRecord> first = runFrames(4);
        send(new Message(RESTORE).i32(frame).u8(mid ? 1 : 0).bytes(snap));
        expect(OK);
        List<FrameRecord> again = runFrames(4);
        for (int i = 0; i < 4; i++) {
            FrameRecord x = first.get(i);
            FrameRecord y = again.get(i);
            assertEquals(x.frame(), y.frame());
            assertEquals(x.cycles(), y.cycles());
            assertEquals(x.pixelHash(), y.pixelHash());
            assertEquals(x.ramHash(), y.ramHash());
            assertEquals(x.stateHashHex(), y.stateHashHex());
        }
        send(new Message(OBSERVE));
        Payload o = expect(OBSERVATION);
        assertEquals(9, o.i32());
        assertEquals(256 * 240, o.i32());
    }

    @Test
    void runStreamSendsEveryCycleDigestInlineCheckpointsAndStopsAtTheFrameLimit() throws Exception {
        hello();
        loadDemo();
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        CycleDigest d = new CycleDigest(c);
        Snapshots snaps = new Snapshots(c);
        // Far past two frames: the frame limit (2) ends it; a checkpoint at the end of frame 1 and 2.
        send(new Message(RUN_STREAM).i64(c.cycles() + 1_000_000).i32(2).i32(1000).i32(1));
        long position = c.cycles();
        long frameStart = c.frame();
        int snapshotsSeen = 0;
        Payload p;
        while ((p = next()).type() != RUN_END) {
            if (p.type() == DIGESTS) {
                long first = p.i64();
                int n = p.i32();
                assertTrue(n <= 1000);
                assertEquals(position + 1, first, "digests follow each other without a gap");
                for (int i = 0; i < n; i++) {
                    c.runCycle();
                    position++;
                    assertEquals(d.digest(), p.i64(), "digest after cycle " + c.cycles());
                }
            } else {
                assertEquals("SNAPSHOT_DATA", typeName(p.type()));
                // Sent right after the digest of the frame's last cycle.
                assertTrue(c.frame() != frameStart, "snapshot at a frame's end");
                frameStart = c.frame();
                snapshotsSeen++;
                assertEquals(snapshotsSeen, p.i32());
                assertEquals(0, p.u8());
                assertEquals(c.cycles(), p.i64());
                p.raw(32);
                assertArrayEquals(snaps.save(), p.bytes());
            }
        }
        assertEquals(2, snapshotsSeen);
        assertEquals(2, p.i32(), "input frame at the end");
        assertEquals(position, p.i64(), "RUN_END carries the stream position");
    }

    @Test
    void injectArmsOneShotFaultsThatFireInsideTheStream() throws Exception {
        hello();
        loadDemo();
        send(new Message(INJECT).i32(1).str("reg@100:B:cpu.nope=1"));
        assertTrue(expectError().contains("cpu.nope"));
        send(new Message(INJECT).i32(1).str("bogus"));
        assertTrue(expectError().contains("bogus"));
        send(new Message(INJECT).i32(2).str("ram-bitflip@5000:B:$0010:3").str("skip-cycle@6000:A"));
        expect(OK);
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        CycleDigest d = new CycleDigest(c);
        send(new Message(RUN_STREAM).i64(7000).i32(1000).i32(256).i32(0));
        List<String> fired = new ArrayList<>();
        long position = c.cycles();
        Payload p;
        while ((p = next()).type() != RUN_END) {
            if (p.type() == FAULT_FIRED) {
                String spec = p.str();
                long at = p.i64();
                fired.add(spec + " at " + at + " cycles " + p.i64());
                assertEquals(position, at, "reported after the digest of its step");
                continue;
            }
            assertEquals("DIGESTS", typeName(p.type()));
            long first = p.i64();
            int n = p.i32();
            assertEquals(position + 1, first);
            for (int i = 0; i < n; i++) {
                position++;
                if (position == 6000) {
                    // The skipped cycle: a step without a cycle.
                    assertEquals(5999, c.cycles());
                } else {
                    c.runCycle();
                }
                if (c.cycles() == 5000) {
                    c.ram().write(0x10, (c.ram().array()[0x10] & 0xFF) ^ 8);
                }
                assertEquals(d.digest(), p.i64(), "digest at position " + position);
            }
        }
        assertEquals(List.of("ram-bitflip@5000:B:$0010:3 at 5000 cycles 5000", "skip-cycle@6000:A at 6000 cycles 5999"),
                fired);
        p.i32();
        assertEquals(7000, p.i64(), "RUN_END at the target position");
    }

    @Test
    void observableHashesAreTheDocumentedOnes() {
        // FNV-1a 64 over the values, the count mixed in, then the MurmurHash3 finaliser.
        assertEquals(hashEnd(hashAdd(hashAdd(hashStart(), 1), 2), 2), hashBytes(new byte[] {1, 2}));
        assertNotEquals(hashBytes(new byte[] {1, 2}), hashBytes(new byte[] {2, 1}));
        assertNotEquals(hashBytes(new byte[0]), hashBytes(new byte[1]));
        assertEquals(0xCBF29CE484222325L, hashStart());
    }

    @Test
    void xxh64MatchesTheReferenceImplementation() {
        // Reference values from libxxhash 0.8.1 (XXH64, seed 0).
        byte[] seq = new byte[768];
        for (int i = 0; i < seq.length; i++) {
            seq[i] = (byte) i;
        }
        assertEquals(0xEF46DB3751D8E999L, Xxh64.hash(new byte[0], 0, 0));
        assertEquals(0xD24EC4F1A98C6E5BL, Xxh64.hash(new byte[] {'a'}, 0, 1));
        assertEquals(0x44BC2CF5AD770999L, Xxh64.hash(new byte[] {'x', 'a', 'b', 'c'}, 1, 3));
        assertEquals(0x6AC1E58032166597L, Xxh64.hash(seq, 0, 100));
        assertEquals(0x8E03C838C596036FL, Xxh64.hash(seq, 0, 768));
        // Short values hash as their little-endian bytes; the scratch buffer is reused.
        short[] shorts = new short[384];
        for (int i = 0; i < shorts.length; i++) {
            shorts[i] = (short) ((seq[2 * i] & 0xFF) | (seq[2 * i + 1] << 8));
        }
        Xxh64 x = new Xxh64();
        assertEquals(0x8E03C838C596036FL, x.hashShorts(shorts, 384));
        assertEquals(0x6AC1E58032166597L, x.hashShorts(shorts, 50));
        assertEquals(0xEF46DB3751D8E999L, x.hashShorts(shorts, 0));
    }

    @Test
    void hashesSelectsXxh64ForFrameRecordsAndRefusesUnknownSchemes() throws Exception {
        hello();
        send(new Message(HASHES).u8(7));
        assertTrue(expectError().contains("unknown hash scheme 7"));
        send(new Message(HASHES).u8(HASH_XXH64));
        assertEquals("observable hashes xxh64", expect(OK).str());
        loadDemo();
        List<FrameRecord> recs = runFrames(3);
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        Snapshots snaps = new Snapshots(c);
        Xxh64 x = new Xxh64();
        short[] samples = new short[4096];
        for (int i = 0; i < 3; i++) {
            c.runFrame();
            var ao = c.apu().audio();
            ao.flush();
            int n = ao.read(samples, 0, ao.available());
            FrameRecord r = recs.get(i);
            assertEquals(c.cycles(), r.cycles());
            short[] px = c.ppu().frame();
            assertEquals(x.hashShorts(px, px.length), r.pixelHash());
            assertNotEquals(hashPixels(px), r.pixelHash());
            assertEquals(Xxh64.hash(c.ram().array(), 0, 2048), r.ramHash());
            assertEquals(n, r.audioSamples());
            assertEquals(x.hashShorts(samples, n), r.audioHash());
            assertEquals(snaps.stateHash(), r.stateHashHex(), "the state hash stays SHA-256");
        }
        // And back to the version-1 hashes.
        send(new Message(HASHES).u8(HASH_FNV1A));
        expect(OK);
        FrameRecord r = runFrames(1).get(0);
        c.runFrame();
        assertEquals(hashPixels(c.ppu().frame()), r.pixelHash());
        assertEquals(hashBytes(c.ram().array()), r.ramHash());
    }
}
