package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.demo.Assembler;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code headless --wav} of a small program that plays a board's sound chip (the 2A03 silent)
 * writes a WAV in which the chip is heard: for listening to each chip, and a check that the
 * chip reaches the audio output through the whole command.
 */
class ExpansionSoundWavTest {
    private static final String VRC6 = String.join("\n",
            "  lda #$7F", "  sta $9000", "  lda #$00", "  sta $9001", "  lda #$82", "  sta $9002",
            "  lda #20", "  sta $B000", "  lda #$00", "  sta $B001", "  lda #$83", "  sta $B002");

    private static final String SUNSOFT_5B = String.join("\n",
            "  lda #0", "  sta $C000", "  lda #200", "  sta $E000",
            "  lda #7", "  sta $C000", "  lda #$3E", "  sta $E000",
            "  lda #8", "  sta $C000", "  lda #15", "  sta $E000");

    private static final String NAMCO_163 = String.join("\n",
            "  lda #$80", "  sta $F800", "  ldx #0",
            "wave:", "  txa", "  asl", "  asl", "  asl", "  asl", "  ora #$08", "  sta $4800", "  inx", "  cpx #16",
            "  bne wave",
            "  lda #$F8", "  sta $F800",
            "  lda #$00", "  sta $4800", "  sta $4800", "  lda #$10", "  sta $4800", "  lda #$00", "  sta $4800",
            "  lda #$E0", "  sta $4800", "  lda #$00", "  sta $4800", "  sta $4800", "  lda #$0F", "  sta $4800");

    private static final String VRC7 = String.join("\n",
            "  lda #$30", "  sta $9010", "  lda #$70", "  sta $9030",
            "  lda #$10", "  sta $9010", "  lda #$6B", "  sta $9030",
            "  lda #$20", "  sta $9010", "  lda #$19", "  sta $9030");

    /** A 32 KiB iNES image on board {@code mapper}: {@code setup}, then a loop forever. */
    private static byte[] rom(int mapper, String setup) {
        Assembler.Program p = Assembler.assemble(".org $8000\nreset:\n  sei\n" + setup
                + "\nforever:\n  jmp forever\nvector:\n  rti\n.org $FFFA\n.word vector, reset, vector\n");
        byte[] prg = p.image(0x8000, 0x8000, 0xFF);
        byte[] image = new byte[16 + prg.length];
        byte[] header = {'N', 'E', 'S', 0x1A, 2, 0, (byte) ((mapper & 0x0F) << 4), (byte) (mapper & 0xF0)};
        System.arraycopy(header, 0, image, 0, header.length);
        System.arraycopy(prg, 0, image, 16, prg.length);
        return image;
    }

    @ParameterizedTest
    @CsvSource({"24, VRC6", "69, SUNSOFT_5B", "19, NAMCO_163", "85, VRC7"})
    void theChipIsHeardInTheWav(int mapper, String chip, @TempDir Path dir) throws Exception {
        String setup = switch (chip) {
            case "VRC6" -> VRC6;
            case "SUNSOFT_5B" -> SUNSOFT_5B;
            case "NAMCO_163" -> NAMCO_163;
            default -> VRC7;
        };
        Path rom = dir.resolve(chip.toLowerCase() + ".nes");
        Files.write(rom, rom(mapper, setup));
        Path wav = dir.resolve(chip.toLowerCase() + ".wav");
        Cli.Result r = Cli.run("headless", rom.toString(), "--frames", "60", "--wav", wav.toString());
        assertEquals(0, r.exit(), r.err());
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(wav)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals("RIFF", new String(Files.readAllBytes(wav), 0, 4, java.nio.charset.StandardCharsets.US_ASCII));
        int samples = (b.capacity() - 44) / 2;
        assertTrue(samples > 40_000, "about a second of audio: " + samples);
        int loud = 0;
        for (int i = samples / 2; i < samples; i++) {
            if (Math.abs(b.getShort(44 + 2 * i)) > 1000) {
                loud++;
            }
        }
        assertTrue(loud > samples / 10, chip + ": loud samples " + loud + " of " + samples / 2);
    }
}
