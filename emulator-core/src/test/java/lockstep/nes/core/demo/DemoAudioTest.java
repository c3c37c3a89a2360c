package lockstep.nes.core.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import lockstep.nes.core.Console;
import lockstep.nes.core.apu.AudioOutput;
import lockstep.nes.core.cart.Cartridge;
import org.junit.jupiter.api.Test;

/** The demo is audible, and its first melody note is in tune. Leaves target/demo-audio.wav. */
class DemoAudioTest {
    private static final int FRAME = DemoRom.symbol("frame");

    @Test
    void playsTheMelodyInTune() throws Exception {
        Console c = Console.create(Cartridge.parse(DemoRom.NAME, DemoRom.bytes()));
        AudioOutput audio = c.apu().audio();
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        short[] buf = new short[8192];
        // Start-up: silent until the NMI starts the melody.
        while (c.peek(FRAME) == 0) {
            c.runFrame();
            drain(audio, buf, all);
        }
        short[] silence = samples(all);
        // (Skipping the APU's power-on step, decaying through the high-pass, and the last frame,
        // in which the first NMI starts the music.)
        assertTrue(silence.length > 3 * 800);
        assertTrue(rms(silence, 1600, silence.length - 800) < 50, "silent during start-up");
        // The first melody step (C4 on pulse 1, C3 on the triangle) lasts 8 frames.
        int noteStart = silence.length;
        for (int f = 0; f < 7; f++) {
            c.runFrame();
            drain(audio, buf, all);
        }
        short[] s = samples(all);
        int from = noteStart + 800;
        int to = s.length - 400;
        int rate = audio.sampleRate();
        double c4 = goertzel(s, from, to, rate, 261.63);
        double below = goertzel(s, from, to, rate, 246.94);
        double above = goertzel(s, from, to, rate, 277.18);
        assertTrue(c4 > 4 * below && c4 > 4 * above,
                "C4 " + c4 + " vs a semitone below " + below + " / above " + above);
        // Then a few seconds of music: loud enough.
        for (int f = 0; f < 200; f++) {
            c.runFrame();
            drain(audio, buf, all);
        }
        s = samples(all);
        assertTrue(rms(s, noteStart, s.length) > 300, "audible: rms " + rms(s, noteStart, s.length));
        writeWav(s, rate, Path.of("target", "demo-audio.wav"));
        assertEquals(2 * s.length + 44, Files.size(Path.of("target", "demo-audio.wav")));
    }

    private static void drain(AudioOutput audio, short[] buf, ByteArrayOutputStream out) {
        int n;
        while ((n = audio.read(buf, 0, buf.length)) > 0) {
            for (int i = 0; i < n; i++) {
                out.write(buf[i] & 0xFF);
                out.write((buf[i] >> 8) & 0xFF);
            }
        }
    }

    private static short[] samples(ByteArrayOutputStream bytes) {
        byte[] b = bytes.toByteArray();
        short[] s = new short[b.length / 2];
        for (int i = 0; i < s.length; i++) {
            s[i] = (short) ((b[2 * i] & 0xFF) | b[2 * i + 1] << 8);
        }
        return s;
    }

    private static double rms(short[] s, int from, int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += (double) s[i] * s[i];
        }
        return Math.sqrt(sum / Math.max(1, to - from));
    }

    /** Signal power at {@code freq} Hz over s[from..to). */
    private static double goertzel(short[] s, int from, int to, int rate, double freq) {
        double w = 2 * Math.PI * freq / rate;
        double coeff = 2 * Math.cos(w);
        double q1 = 0;
        double q2 = 0;
        for (int i = from; i < to; i++) {
            double q0 = coeff * q1 - q2 + s[i];
            q2 = q1;
            q1 = q0;
        }
        return q1 * q1 + q2 * q2 - coeff * q1 * q2;
    }

    private static void writeWav(short[] s, int rate, Path file) throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes("RIFF".getBytes());
        le32(b, 36 + 2 * s.length);
        b.writeBytes("WAVEfmt ".getBytes());
        le32(b, 16);
        le16(b, 1);             // PCM
        le16(b, 1);             // mono
        le32(b, rate);
        le32(b, rate * 2);
        le16(b, 2);
        le16(b, 16);
        b.writeBytes("data".getBytes());
        le32(b, 2 * s.length);
        for (short v : s) {
            le16(b, v);
        }
        Files.createDirectories(file.getParent());
        Files.write(file, b.toByteArray());
    }

    private static void le16(ByteArrayOutputStream b, int v) {
        b.write(v & 0xFF);
        b.write((v >> 8) & 0xFF);
    }

    private static void le32(ByteArrayOutputStream b, int v) {
        le16(b, v & 0xFFFF);
        le16(b, (v >>> 16) & 0xFFFF);
    }
}
