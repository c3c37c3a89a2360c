package lockstep.nes.roms;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's result detection, on hand-built ROMs (no test ROM folder needed). */
class RomRunnerTest {
    @TempDir
    Path dir;

    private RomResult run(String name, TestRoms.Code code, RomEntry entry) throws IOException {
        TestRoms.write(dir, name, code);
        return new RomRunner(dir).run(entry);
    }

    private RomResult run6000(String name, TestRoms.Code code, int frames) throws IOException {
        return run(name, code, RomEntry.adHoc(name, frames));
    }

    @Test
    void protocol6000PassWithText() throws IOException {
        TestRoms.Code c = new TestRoms.Code().store(0x6000, 0x80).signature().text("hello\nPassed\n")
                .delay(2).store(0x6000, 0x00).forever();
        RomResult r = run6000("pass.nes", c, 200);
        assertEquals(Status.PASS, r.status(), r.message());
        assertEquals(0, r.code());
        assertEquals("hello\nPassed\n", r.message());
        assertEquals("hello / Passed", r.oneLineMessage());
        assertTrue(r.frames() > 10 && r.frames() < 60, "frames " + r.frames());
        assertNull(r.picture(), "no picture kept for a pass");
    }

    @Test
    void protocol6000FailCodeAndPicture() throws IOException {
        TestRoms.Code c = new TestRoms.Code().store(0x6000, 0x80).signature().text("Failed #3")
                .delay(1).store(0x6000, 0x03).forever();
        RomResult r = run6000("fail.nes", c, 200);
        assertEquals(Status.FAIL, r.status());
        assertEquals(3, r.code());
        assertEquals("Failed #3", r.message());
        assertEquals(256 * 240, r.picture().length);
    }

    @Test
    void zeroAt6000WithoutSignatureIsNotAPass() throws IOException {
        TestRoms.Code c = new TestRoms.Code().store(0x6000, 0x00).forever();
        RomResult r = run6000("nosig.nes", c, 30);
        assertEquals(Status.TIMEOUT, r.status());
        assertNull(r.code());
        assertTrue(r.message().contains("no $6000-protocol signature"), r.message());
        assertEquals(30, r.frames());
    }

    @Test
    void wrongSignatureIsNotAPass() throws IOException {
        TestRoms.Code c = new TestRoms.Code().store(0x6001, 0xDE).store(0x6002, 0xB0).store(0x6003, 0x60)
                .store(0x6000, 0x00).forever();
        assertEquals(Status.TIMEOUT, run6000("badsig.nes", c, 30).status());
    }

    @Test
    void resultWrittenBeforeRunningIsReadAfterItHolds() throws IOException {
        // Signature and $00 in the first frame, never $80: accepted once it reads the same twice.
        TestRoms.Code c = new TestRoms.Code().signature().store(0x6000, 0x00).forever();
        RomResult r = run6000("quick.nes", c, 30);
        assertEquals(Status.PASS, r.status());
        assertEquals(2, r.frames());
    }

    @Test
    void resetRequestIsHonouredAfterTheDelay() throws IOException {
        // First run: flag $6010 = 1, ask for a reset ($81). After the reset: report $00.
        TestRoms.Code c = new TestRoms.Code();
        c.op(0xAD, 0x10, 0x60);                 // LDA $6010
        c.op(0xD0, 0x00);                       // BNE second (patched below)
        int branch = c.pc() - 1;
        c.store(0x6010, 1).store(0x6000, 0x80).signature().store(0x6000, 0x81).forever();
        int second = c.pc();
        c.store(0x6000, 0x80).delay(1).store(0x6000, 0x00).forever();
        byte[] code = c.bytes();
        code[branch - 0x8000] = (byte) (second - (branch + 1));
        TestRoms.Code patched = new TestRoms.Code().op(toInts(code));
        RomResult r = run6000("reset.nes", patched, 200);
        assertEquals(Status.PASS, r.status(), r.message());
        assertTrue(r.frames() > RomRunner.RESET_DELAY_FRAMES, "frames " + r.frames());
    }

    @Test
    void resetRequestWithoutResetTimesOut() throws IOException {
        TestRoms.Code c = new TestRoms.Code().store(0x6000, 0x80).signature().store(0x6000, 0x81).forever();
        // Shorter than the reset delay: no reset yet, so no result.
        RomResult r = run6000("wantsreset.nes", c, RomRunner.RESET_DELAY_FRAMES - 2);
        assertEquals(Status.TIMEOUT, r.status());
        assertTrue(r.message().contains("$6000=$81"), r.message());
    }

    @Test
    void f8ByteReadOnceTheRomSitsInItsFinalLoop() throws IOException {
        TestRoms.Code pass = new TestRoms.Code().op(0xA9, 0x05, 0x85, 0xF8).delay(1)
                .op(0xA9, 0x01, 0x85, 0xF8).forever();
        RomResult r = run("f8pass.nes", pass, entry("f8pass.nes", Family.F8, null, 300));
        assertEquals(Status.PASS, r.status(), r.message());
        assertEquals(1, r.code());
        TestRoms.Code fail = new TestRoms.Code().op(0xA9, 0x04, 0x85, 0xF0).forever();
        r = run("f0fail.nes", fail, entry("f0fail.nes", Family.F8, "F0", 300));
        assertEquals(Status.FAIL, r.status());
        assertEquals(4, r.code());
        assertTrue(r.message().startsWith("failed test #4"), r.message());
    }

    @Test
    void f8ZeroNeverFinishes() throws IOException {
        TestRoms.Code c = new TestRoms.Code().forever();
        RomResult r = run("f8zero.nes", c, entry("f8zero.nes", Family.F8, null, 40));
        assertEquals(Status.TIMEOUT, r.status());
    }

    @Test
    void jammedCpuIsAnError() throws IOException {
        TestRoms.Code c = new TestRoms.Code().op(0x02);
        RomResult r = run6000("jam.nes", c, 100);
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("jammed"), r.message());
    }

    @Test
    void badFileIsAnErrorNotAnException() throws IOException {
        java.nio.file.Files.writeString(dir.resolve("bad.nes"), "this is not an iNES file at all");
        RomResult r = new RomRunner(dir).run(RomEntry.adHoc("bad.nes", 10));
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("bad magic"), r.message());
        r = new RomRunner(dir).run(RomEntry.adHoc("missing.nes", 10));
        assertEquals(Status.ERROR, r.status());
        assertTrue(r.message().contains("not found"), r.message());
    }

    @Test
    void buttonsFromTheManifestReachTheController() throws IOException {
        // Strobe $4016, read A (bit 0) into $F8 as 1 (pressed) or 2 (not), then loop.
        TestRoms.Code c = new TestRoms.Code();
        int top = c.pc();
        c.op(0xA9, 0x01, 0x8D, 0x16, 0x40, 0xA9, 0x00, 0x8D, 0x16, 0x40); // strobe
        c.op(0xAD, 0x16, 0x40, 0x29, 0x01);                                // LDA $4016; AND #1
        c.op(0xF0, (top - (c.pc() + 2)) & 0xFF);                           // BEQ top (wait for A)
        c.op(0xA9, 0x01, 0x85, 0xF8).forever();
        RomEntry held = new RomEntry("joy.nes", null, Family.F8, 200,
                List.of(new InputEvent(30, "A", 0, false, false)), Expect.PASS, null, null, null, null,
                null, null, null, null, null);
        RomResult r = run("joy.nes", c, held);
        assertEquals(Status.PASS, r.status(), r.message());
        assertTrue(r.frames() > 30, "frames " + r.frames());
        RomEntry none = new RomEntry("joy.nes", null, Family.F8, 60, List.of(), Expect.PASS, null, null,
                null, null, null, null, null, null, null);
        assertEquals(Status.TIMEOUT, new RomRunner(dir).run(none).status());
    }

    static RomEntry entry(String rom, Family f, String address, int frames) {
        return new RomEntry(rom, null, f, frames, List.of(), Expect.PASS, null, address, null, null, null,
                null, null, null, null);
    }

    private static int[] toInts(byte[] b) {
        int[] out = new int[b.length];
        for (int i = 0; i < b.length; i++) {
            out[i] = b[i] & 0xFF;
        }
        return out;
    }
}
