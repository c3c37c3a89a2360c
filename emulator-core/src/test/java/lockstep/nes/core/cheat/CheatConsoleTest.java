package lockstep.nes.core.cheat;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.RomFormatException;
import lockstep.nes.core.demo.Assembler;
import lockstep.nes.core.demo.Ines;
import lockstep.nes.core.digest.CycleDigest;
import lockstep.nes.core.snapshot.SnapshotException;
import lockstep.nes.core.snapshot.Snapshots;
import org.junit.jupiter.api.Test;

/**
 * Cheats on a running console: a program copies a ROM byte and a RAM byte into RAM every turn of
 * its loop, so what its reads see shows in RAM; the described state carries the cheats.
 */
class CheatConsoleTest {
    private static final String SOURCE = String.join("\n",
            ".org $8000",
            "reset:",
            "  lda #$33",
            "  sta $20",
            "loop:",
            "  lda lives",      // a ROM byte: a Game Genie code's target
            "  sta $10",
            "  lda $20",        // a RAM byte: a raw code's target
            "  sta $11",
            "  inc $12",
            "  jmp loop",
            "lives:",
            "  .byte $03",
            "nmi:",
            "  rti",
            ".org $FFFA",
            ".word nmi, reset, nmi",
            "");

    private static final Assembler.Program PROGRAM = Assembler.assemble(SOURCE);

    private static Cartridge cart() throws RomFormatException {
        return Cartridge.parse("cheat-program.nes", Ines.nrom(PROGRAM.image(0x8000, 0x8000, 0xFF), new byte[0x2000], true));
    }

    private static Console console(Cheat... cheats) throws RomFormatException {
        return Console.create(cart().withCheats(List.of(cheats)));
    }

    private static int lives() {
        return PROGRAM.symbol("lives");
    }

    private static void frames(Console c, int n) {
        for (int i = 0; i < n; i++) {
            c.runFrame();
        }
    }

    @Test
    void withoutCheatsTheProgramCopiesWhatIsThere() throws Exception {
        Console c = console();
        frames(c, 3);
        assertEquals(0x03, c.ram().read(0x10));
        assertEquals(0x33, c.ram().read(0x11));
        assertTrue(c.cheats().isEmpty());
    }

    @Test
    void aRomCheatChangesWhatTheProgramReadsAndStores() throws Exception {
        Console c = console(Cheat.of(lives(), 0x09, Cheat.NO_COMPARE));
        frames(c, 3);
        assertEquals(0x09, c.ram().read(0x10));
        assertEquals(0x33, c.ram().read(0x11));
        assertEquals(0x09, c.peek(lives()), "peek sees what the CPU reads");
    }

    @Test
    void aCompareValueGatesTheSubstitution() throws Exception {
        Console hit = console(Cheat.of(lives(), 0x09, 0x03));
        Console miss = console(Cheat.of(lives(), 0x09, 0x04));
        frames(hit, 2);
        frames(miss, 2);
        assertEquals(0x09, hit.ram().read(0x10));
        assertEquals(0x03, miss.ram().read(0x10));
    }

    @Test
    void aRawCodeOnRamChangesWhatReadsOfItSeeNotTheRamItself() throws Exception {
        Console c = console(Cheat.parse("0020:5A"));
        frames(c, 2);
        assertEquals(0x5A, c.ram().read(0x11));
        assertEquals(0x33, c.ram().read(0x20), "the cheat substitutes reads; the RAM keeps what was written");
    }

    @Test
    void aGameGenieCodeDecodedToTheProgramsAddressWorksLikeItsRawForm() throws Exception {
        // Encode lives' address with value $07 as a 6-letter code by search over the letters
        // (decoding is tested against published codes; this only needs the round trip).
        Cheat want = Cheat.of(lives(), 0x07, Cheat.NO_COMPARE);
        Cheat gg = encode(want);
        assertEquals(want.address(), gg.address());
        Console c = console(gg);
        frames(c, 2);
        assertEquals(0x07, c.ram().read(0x10));
    }

    @Test
    void cyclesRunOneByOneSeeTheCheatsAsWholeInstructionsDo() throws Exception {
        Cheat[] cheats = {Cheat.of(lives(), 0x09, Cheat.NO_COMPARE), Cheat.parse("0020:5A")};
        Console whole = console(cheats);
        Console cycles = console(cheats);
        frames(whole, 2);
        while (cycles.cycles() < whole.cycles()) {
            cycles.runCycle();
        }
        assertEquals(whole.cycles(), cycles.cycles());
        assertEquals(new Snapshots(whole).stateHash(), new Snapshots(cycles).stateHash());
    }

    @Test
    void theDigestAndTheSnapshotSeeTheCheats() throws Exception {
        Console plain = console();
        Console cheating = console(Cheat.parse("FFF0:01"));
        // No read reaches $FFF0, so both run alike: only the cheats differ.
        frames(plain, 2);
        frames(cheating, 2);
        assertArrayEquals(plain.ram().array(), cheating.ram().array());
        CycleDigest a = new CycleDigest(plain);
        CycleDigest b = new CycleDigest(cheating);
        assertNotEquals(a.digest(), b.digest());
        assertEquals(b.reference(), b.digest(), "the fast path equals the description's term");
        assertEquals(b.recompute(), b.digest());
        cheating.catchUp();
        assertEquals(b.recomputeRepresentation(), b.representation());
        assertNotEquals(new Snapshots(plain).stateHash(), new Snapshots(cheating).stateHash());

        Console other = console(Cheat.parse("FFF0:02"));
        frames(other, 2);
        assertNotEquals(b.digest(), new CycleDigest(other).digest());
    }

    @Test
    void aSnapshotCarriesTheCheatsBothWays() throws Exception {
        Console source = console(Cheat.of(lives(), 0x09, Cheat.NO_COMPARE), Cheat.parse("0020:5A:33"));
        frames(source, 2);
        byte[] saved = new Snapshots(source).save();

        Console plain = console();
        Snapshots loaded = new Snapshots(plain);
        loaded.load(saved);
        assertEquals(source.cheats(), plain.cheats());
        assertEquals(new Snapshots(source).stateHash(), loaded.stateHash());
        frames(source, 2);
        frames(plain, 2);
        assertEquals(new Snapshots(source).stateHash(), loaded.stateHash(), "the loaded cheats act");
        assertEquals(0x09, plain.ram().read(0x10));

        // A snapshot without cheats empties them.
        Console fresh = console();
        frames(fresh, 2);
        Snapshots back = new Snapshots(source);
        back.load(new Snapshots(fresh).save());
        assertTrue(source.cheats().isEmpty());
        assertEquals(new Snapshots(fresh).stateHash(), back.stateHash());
        frames(source, 1);
        frames(fresh, 1);
        assertEquals(0x03, source.ram().read(0x10));
        assertEquals(new Snapshots(fresh).stateHash(), back.stateHash());
    }

    @Test
    void aConsoleWithoutCheatsSnapshotsAsBefore() throws Exception {
        Console c = console();
        frames(c, 1);
        String hash = new Snapshots(c).stateHash();
        c.setCheats(List.of(Cheat.parse("FFF0:01")));
        assertNotEquals(hash, new Snapshots(c).stateHash());
        c.setCheats(List.of());
        assertEquals(hash, new Snapshots(c).stateHash(), "no trace of cheats once none is in effect");
    }

    @Test
    void cheatsPutInEffectWhileRunningActFromTheNextRead() throws Exception {
        Console c = console();
        frames(c, 1);
        assertEquals(0x03, c.ram().read(0x10));
        c.setCheats(List.of(Cheat.of(lives(), 0x0A, Cheat.NO_COMPARE)));
        frames(c, 1);
        assertEquals(0x0A, c.ram().read(0x10));
        c.setCheats(List.of());
        frames(c, 1);
        assertEquals(0x03, c.ram().read(0x10));
    }

    @Test
    void aCorruptSnapshotWithCheatsIsRefusedWithoutChangingTheEngine() throws Exception {
        Console source = console(Cheat.parse("FFF0:01"));
        byte[] saved = new Snapshots(source).save();
        saved[saved.length - 10] ^= 1; // inside the cheats section, checksum now wrong
        Console target = console();
        assertThrows(SnapshotException.class, () -> new Snapshots(target).load(saved));
        assertTrue(target.cheats().isEmpty());
    }

    /** The 6-letter code for {@code c} (an exhaustive search over the letters that matter). */
    private static Cheat encode(Cheat c) throws CheatException {
        final String letters = "APZLGITYEOXUKSVN";
        // Invert the decoding bit by bit: each nibble's bits come from known address/value bits.
        int a = c.address();
        int v = c.value();
        int n0 = (v & 7) | ((v >> 4) & 8);
        int n1 = ((v >> 4) & 7) | ((a >> 4) & 8);
        int n2 = (a >> 4) & 7;
        int n3 = ((a >> 12) & 7) | (a & 8);
        int n4 = (a & 7) | ((a >> 8) & 8);
        int n5 = ((a >> 8) & 7) | (v & 8);
        int[] n = {n0, n1, n2, n3, n4, n5};
        StringBuilder b = new StringBuilder();
        for (int x : n) {
            b.append(letters.charAt(x));
        }
        Cheat decoded = GameGenie.decode(b.toString());
        assertEquals(c.raw(), decoded.raw());
        return decoded;
    }
}
