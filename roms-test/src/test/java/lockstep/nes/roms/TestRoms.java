package lockstep.nes.roms;


import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builds tiny NROM images from hand-assembled 6502 code, for runner tests that need no ROM files. */
final class TestRoms {
    private TestRoms() {
    }

    /** A little assembler: bytes with labels resolved by the caller (code starts at $8000). */
    static final class Code {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Code op(int... bytes) {
            for (int b : bytes) {
                out.write(b);
            }
            return this;
        }

        int pc() {
            return 0x8000 + out.size();
        }

        /** LDA #v; STA addr. */
        Code store(int addr, int v) {
            return op(0xA9, v, 0x8D, addr & 0xFF, addr >> 8);
        }

        /** Writes the $6000-protocol signature DE B0 61 at $6001. */
        Code signature() {
            return store(0x6001, 0xDE).store(0x6002, 0xB0).store(0x6003, 0x61);
        }

        /** Writes a zero-terminated text at $6004. */
        Code text(String s) {
            for (int i = 0; i < s.length(); i++) {
                store(0x6004 + i, s.charAt(i));
            }
            return store(0x6004 + s.length(), 0);
        }

        /** Busy-waits about {@code n} x 65536 x 5 cycles (n x ~11 frames). */
        Code delay(int n) {
            op(0xA9, n, 0x85, 0x10);          // LDA #n; STA $10
            int outer = pc();
            op(0xA2, 0x00);                   // LDX #0
            int mid = pc();
            op(0xA0, 0x00);                   // LDY #0
            int inner = pc();
            op(0x88, 0xD0, (inner - (pc() + 3)) & 0xFF);   // DEY; BNE inner
            op(0xCA, 0xD0, (mid - (pc() + 3)) & 0xFF);     // DEX; BNE mid
            op(0xC6, 0x10);                                // DEC $10
            return op(0xD0, (outer - (pc() + 2)) & 0xFF);  // BNE outer
        }

        /** JMP to itself. */
        Code forever() {
            int here = pc();
            return op(0x4C, here & 0xFF, here >> 8);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** An iNES NROM-128 image: {@code code} at $8000 (reset vector), NMI/IRQ vectors at an RTI. */
    static byte[] nrom(Code code) {
        byte[] prg = new byte[16384];
        byte[] c = code.bytes();
        System.arraycopy(c, 0, prg, 0, c.length);
        int rti = 0x3FF0;
        prg[rti] = 0x40;
        int rtiAddr = 0xC000 + rti;
        prg[0x3FFA] = (byte) rtiAddr;
        prg[0x3FFB] = (byte) (rtiAddr >> 8);
        prg[0x3FFC] = 0x00;
        prg[0x3FFD] = (byte) 0x80;
        prg[0x3FFE] = (byte) rtiAddr;
        prg[0x3FFF] = (byte) (rtiAddr >> 8);
        byte[] rom = new byte[16 + prg.length + 8192];
        rom[0] = 'N';
        rom[1] = 'E';
        rom[2] = 'S';
        rom[3] = 0x1A;
        rom[4] = 1;
        rom[5] = 1;
        System.arraycopy(prg, 0, rom, 16, prg.length);
        return rom;
    }

    static Path write(Path dir, String name, Code code) throws IOException {
        Path f = dir.resolve(name);
        Files.createDirectories(f.getParent());
        Files.write(f, nrom(code));
        return f;
    }
}
