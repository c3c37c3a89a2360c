package lockstep.nes.app;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import lockstep.nes.core.demo.Assembler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code lockstep nsf} and {@code lockstep info} on NSF files built here with the assembler. */
class NsfCommandTest {
    @TempDir
    Path work;

    /** A two-track NSF whose init starts a 2A03 pulse tone (track 2 an octave up) and whose play counts. */
    private Path nsf(int chips) throws Exception {
        Assembler.Program p = Assembler.assemble(String.join("\n",
                ".org $8000",
                "init:",
                "  tay",
                "  lda #$BF",
                "  sta $4000",
                "  lda #253",
                "  cpy #1",
                "  bne low",
                "  lda #126",
                "low:",
                "  sta $4002",
                "  lda #0",
                "  sta $4003",
                "  rts",
                "play:",
                "  inc $20",
                "  rts",
                ""));
        byte[] program = p.image(0x8000, p.size(), 0);
        byte[] d = new byte[0x80 + program.length];
        byte[] magic = {'N', 'E', 'S', 'M', 0x1A, 1, 2, 1};
        System.arraycopy(magic, 0, d, 0, magic.length);
        d[8] = 0x00;
        d[9] = (byte) 0x80;
        d[0xA] = (byte) p.symbol("init");
        d[0xB] = (byte) (p.symbol("init") >> 8);
        d[0xC] = (byte) p.symbol("play");
        d[0xD] = (byte) (p.symbol("play") >> 8);
        byte[] title = "Two Tones".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(title, 0, d, 0xE, title.length);
        byte[] artist = "lockstep".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(artist, 0, d, 0x2E, artist.length);
        d[0x6E] = (byte) (16639 & 0xFF);
        d[0x6F] = (byte) (16639 >> 8);
        d[0x7B] = (byte) chips;
        System.arraycopy(program, 0, d, 0x80, program.length);
        Path f = work.resolve("two-tones.nsf");
        Files.write(f, d);
        return f;
    }

    @Test
    void playsATrackIntoAWavAndListsTheTags() throws Exception {
        Path f = nsf(0);
        Path wav = work.resolve("out.wav");
        Cli.Result r = Cli.run("nsf", f.toString(), "--track", "2", "--seconds", "1", "--wav", wav.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Title:       Two Tones"), r.out());
        assertTrue(r.out().contains("Artist:      lockstep"), r.out());
        assertTrue(r.out().contains("Tracks:      2 (first: 1)"), r.out());
        assertTrue(r.out().contains("track=2 seconds=1.0"), r.out());
        byte[] w = Files.readAllBytes(wav);
        int rate = (w[24] & 0xFF) | (w[25] & 0xFF) << 8 | (w[26] & 0xFF) << 16;
        int samples = (w.length - 44) / 2;
        assertEquals(rate, samples, rate * 0.03, "one second of audio");
        // Track 2's tone (period 126) crosses zero about twice as often as track 1's (253).
        Path wav1 = work.resolve("one.wav");
        assertEquals(0, Cli.run("nsf", f.toString(), "--track", "1", "--seconds", "1", "--wav", wav1.toString()).exit());
        double ratio = (double) crossings(w) / crossings(Files.readAllBytes(wav1));
        assertEquals(2.0, ratio, 0.1);
    }

    private static int crossings(byte[] wav) {
        long sum = 0;
        int n = (wav.length - 44) / 2;
        short[] s = new short[n];
        for (int i = 0; i < n; i++) {
            s[i] = (short) ((wav[44 + 2 * i] & 0xFF) | wav[45 + 2 * i] << 8);
            sum += s[i];
        }
        double mean = (double) sum / n;
        int c = 0;
        for (int i = 1 + n / 10; i < n; i++) {
            if ((s[i - 1] - mean < 0) != (s[i] - mean < 0)) {
                c++;
            }
        }
        return c;
    }

    @Test
    void infoRecognisesAnNsf() throws Exception {
        Cli.Result r = Cli.run("info", nsf(1).toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("Title:       Two Tones"), r.out());
        assertTrue(r.out().contains("Chips:       VRC6"), r.out());
    }

    @Test
    void badFilesAndOptionsAreOneLine() throws Exception {
        Path f = nsf(0);
        Cli.Result track = Cli.run("nsf", f.toString(), "--track", "3");
        assertEquals(ExitCodes.BAD_INPUT, track.exit());
        assertTrue(track.err().contains("--track must be between 1 and 2"), track.err());

        Path fds = nsf(4);
        byte[] low = Files.readAllBytes(fds);
        low[8] = 0;
        low[9] = 0x50;
        Files.write(fds, low);
        Cli.Result r = Cli.run("nsf", fds.toString());
        assertEquals(ExitCodes.BAD_INPUT, r.exit());
        assertEquals(fds + ": load address $5000 is below $6000", r.err().strip().replaceFirst("^error: ", ""));

        Path junk = work.resolve("junk.nsf");
        Files.writeString(junk, "NESM\u001A short");
        Cli.Result j = Cli.run("nsf", junk.toString());
        assertEquals(ExitCodes.BAD_INPUT, j.exit());
        assertTrue(j.err().contains(junk + ": header truncated"), j.err());
        assertEquals(1, j.err().strip().lines().count());
        Cli.Result i = Cli.run("info", junk.toString());
        assertEquals(ExitCodes.BAD_INPUT, i.exit());
        assertTrue(i.err().contains("header truncated"), i.err());
    }

    @Test
    void theNsfeFadeScalesTheTrackDownToSilenceOverItsLength() {
        short[] b = new short[10];
        java.util.Arrays.fill(b, (short) 1000);
        // Samples 100-109 of a track whose fade of 8 samples starts at sample 102.
        NsfCommand.fadeOut(b, 10, 100, 102, 8);
        assertArrayEquals(new short[] {1000, 1000, 1000, 875, 750, 625, 500, 375, 250, 125}, b);
        short[] after = new short[3];
        java.util.Arrays.fill(after, (short) -1000);
        NsfCommand.fadeOut(after, 3, 110, 102, 8);
        assertArrayEquals(new short[] {0, 0, 0}, after, "silent past the fade");
        short[] none = {500};
        NsfCommand.fadeOut(none, 1, 200, 0, 0);
        assertArrayEquals(new short[] {500}, none, "no fade: nothing changes");
    }
}
