import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/**
 * Writes an iNES file of random code for one mapper number, for timing what a board's hooks and
 * digest cost in the verifying modes on boards no shared test ROM uses: 128 KiB of random PRG
 * (the KIL opcodes replaced by NOP, so the CPU keeps running and writes random PPU and board
 * registers, IRQ counters included), 8 KiB of PRG-RAM and 128 KiB of random CHR ROM, or 8 KiB of
 * CHR-RAM. Time the file with {@code lockstep bench FILE --mode strict} (benchmarks/README.md,
 * "Boards without a shared ROM"). The same seed gives the same file.
 *
 * <p>{@code java scripts/RandomCodeRom.java MAPPER SEED OUT.nes [chr-ram]}
 */
public final class RandomCodeRom {
    public static void main(String[] args) throws IOException {
        if (args.length < 3) {
            System.err.println("usage: RandomCodeRom MAPPER SEED OUT.nes [chr-ram]");
            System.exit(2);
        }
        final int mapper = Integer.parseInt(args[0]);
        final Random r = new Random(Long.parseLong(args[1]));
        final boolean chrRam = args.length > 3 && args[3].equals("chr-ram");
        final byte[] prg = new byte[128 * 1024];
        r.nextBytes(prg);
        for (int i = 0; i < prg.length; i++) {
            if ((prg[i] & 0x1F) == 0x12 || (prg[i] & 0xFF) == 0x02) {
                prg[i] = (byte) 0xEA;
            }
        }
        final byte[] chr = new byte[chrRam ? 0 : 128 * 1024];
        r.nextBytes(chr);
        final byte[] header = new byte[16];
        header[0] = 'N';
        header[1] = 'E';
        header[2] = 'S';
        header[3] = 0x1A;
        header[4] = (byte) (prg.length / 16384);
        header[5] = (byte) (chr.length / 8192);
        header[6] = (byte) (((mapper & 0x0F) << 4) | 0x01); // vertical mirroring
        header[7] = (byte) (mapper & 0xF0);
        header[8] = 1; // 8 KiB of PRG-RAM
        final byte[] file = new byte[16 + prg.length + chr.length];
        System.arraycopy(header, 0, file, 0, 16);
        System.arraycopy(prg, 0, file, 16, prg.length);
        System.arraycopy(chr, 0, file, 16 + prg.length, chr.length);
        Files.write(Path.of(args[2]), file);
    }
}
