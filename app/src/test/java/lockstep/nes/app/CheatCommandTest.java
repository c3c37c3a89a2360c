package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import lockstep.nes.core.cheat.Cheat;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.DemoRom;
import lockstep.nes.core.demo.Ines;
import lockstep.nes.verifier.canary.Canary;
import lockstep.nes.verifier.canary.CanaryResult;
import lockstep.nes.verifier.host.HostException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --cheat} on the commands that run a ROM, with a program whose RAM shows what its reads saw. */
class CheatCommandTest {
    @TempDir
    Path work;

    private static final Assembler.Program PROGRAM = Assembler.assemble(String.join("\n",
            ".org $8000",
            "reset:",
            "  lda #$33",
            "  sta $20",
            "loop:",
            "  lda lives",
            "  sta $10",
            "  lda $20",
            "  sta $11",
            "  jmp loop",
            "lives:",
            "  .byte $03",
            "nmi:",
            "  rti",
            ".org $FFFA",
            ".word nmi, reset, nmi",
            ""));

    private Path rom() throws Exception {
        Path p = work.resolve("cheat-program.nes");
        Files.write(p, Ines.nrom(PROGRAM.image(0x8000, 0x8000, 0xFF), new byte[0x2000], true));
        return p;
    }

    private String livesCode(int value) {
        return String.format("%04X:%02X", PROGRAM.symbol("lives"), value);
    }

    @Test
    void headlessRunsWithTheCheatsAndTheirStateShowsInRam() throws Exception {
        Path rom = rom();
        Path plain = work.resolve("plain.bin");
        Path cheated = work.resolve("cheated.bin");
        Path state = work.resolve("cheated.lss");
        Cli.Result a = Cli.run("headless", rom.toString(), "--frames", "3", "--dump-ram", plain.toString());
        Cli.Result b = Cli.run("headless", rom.toString(), "--frames", "3", "--dump-ram", cheated.toString(),
                "--cheat", livesCode(0x09), "--cheat", "0020:5A", "--save-state", state.toString());
        assertEquals(0, a.exit(), a.err());
        assertEquals(0, b.exit(), b.err());
        assertEquals(0x03, Files.readAllBytes(plain)[0x10]);
        assertEquals(0x09, Files.readAllBytes(cheated)[0x10]);
        assertEquals(0x5A, Files.readAllBytes(cheated)[0x11]);
        assertNotEquals(stateOf(a), stateOf(b));

        // The snapshot carries the cheats: a run loaded from it keeps them without --cheat.
        Path resumed = work.resolve("resumed.bin");
        Cli.Result c = Cli.run("headless", rom.toString(), "--frames", "1", "--load-state", state.toString(),
                "--dump-ram", resumed.toString());
        assertEquals(0, c.exit(), c.err());
        assertEquals(0x09, Files.readAllBytes(resumed)[0x10]);
    }

    @Test
    void aBadCodeIsOneLineNamingIt() {
        for (String cmd : List.of("headless", "trace", "verify")) {
            Cli.Result r = Cli.run(cmd, "--cheat", "GOSSIQ");
            assertEquals(ExitCodes.BAD_INPUT, r.exit(), cmd + ": " + r.err());
            assertTrue(r.err().contains("cheat 'GOSSIQ'"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
    }

    @Test
    void traceShowsTheCheatedRead() throws Exception {
        Cli.Result r = Cli.run("trace", rom().toString(), "--count", "6", "--cheat", livesCode(0x09));
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("A:09"), r.out());
    }

    @Test
    void verifyRunsBothEnginesWithTheCheats() throws Exception {
        for (String mode : List.of("same-thread", "threads", "processes")) {
            Cli.Result r = Cli.run("verify", rom().toString(), "--mode", mode, "--frames", "20",
                    "--cheat", livesCode(0x09), "--cheat", "GOSSIP");
            assertEquals(0, r.exit(), mode + ": " + r.out() + r.err());
        }
    }

    @Test
    void canaryRunsBothSidesWithTheCheats() throws Exception {
        String cp = System.getProperty("java.class.path");
        Canary.Options o = new Canary.Options();
        o.checkpointEvery = 10;
        byte[] image = Files.readAllBytes(rom());
        try (Canary c = Canary.start(cp, cp, o)) {
            Canary.Target plain = new Canary.Target("cheat-program.nes", image, null, null, 20);
            CanaryResult without = c.run(plain);
            CanaryResult with = c.run(plain.withCheats(List.of(Cheat.parse(livesCode(0x09)))));
            assertEquals("pass", without.status(), () -> String.valueOf(without));
            assertEquals("pass", with.status(), () -> String.valueOf(with));
            assertNotEquals(without.finalStateHashBaseline(), with.finalStateHashBaseline(), "the cheats were in effect");
        }
    }

    @Test
    void canaryRefusesTwoSidesWithDifferentCheats() throws Exception {
        List<Cheat> asked = List.of(Cheat.parse("GOSSIP"));
        Canary.checkCheats(asked, "D1DD:14", "D1DD:14");
        HostException older = assertThrows(HostException.class, () -> Canary.checkCheats(asked, "D1DD:14", null));
        assertEquals(HostException.Kind.PROTOCOL, older.kind());
        assertTrue(older.getMessage().startsWith("candidate: runs with cheats none"), older.getMessage());
        HostException other = assertThrows(HostException.class, () -> Canary.checkCheats(asked, "D1DD:15", "D1DD:14"));
        assertTrue(other.getMessage().startsWith("baseline: runs with cheats 'D1DD:15'"), other.getMessage());
        Canary.checkCheats(List.of(), "", null); // no cheats: any host will do
    }

    private static String stateOf(Cli.Result r) {
        for (String part : r.out().split("\\s+")) {
            if (part.startsWith("state=")) {
                return part;
            }
        }
        throw new AssertionError("no state= in " + r.out());
    }

    @Test
    void theDemoRomRunsWithAGameGenieCode() {
        Cli.Result r = Cli.run("headless", DemoRom.BUILTIN, "--frames", "2", "--cheat", "GOSSIP");
        assertEquals(0, r.exit(), r.err());
    }
}
