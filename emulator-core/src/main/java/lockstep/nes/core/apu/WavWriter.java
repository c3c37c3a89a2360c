package lockstep.nes.core.apu;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes 16-bit signed mono PCM to a RIFF/WAVE file. The header's sizes are patched on
 * {@link #close}. Typical use with a console:
 *
 * <pre>{@code
 * try (WavWriter wav = new WavWriter(path, console.apu().audio().sampleRate())) {
 *     short[] buf = new short[8192];
 *     for (int f = 0; f < frames; f++) {
 *         console.runFrame();
 *         int n = console.apu().audio().read(buf, 0, buf.length);
 *         wav.write(buf, 0, n);
 *     }
 * }
 * }</pre>
 */
public final class WavWriter implements Closeable {
    private static final int HEADER = 44;

    private final Path path;
    private final int sampleRate;
    private final OutputStream out;
    private final byte[] bytes = new byte[16384];
    private long samples;
    private boolean closed;

    public WavWriter(Path path, int sampleRate) throws IOException {
        this.path = path;
        this.sampleRate = sampleRate;
        this.out = Files.newOutputStream(path);
        out.write(header(0));
    }

    /** Appends {@code len} samples from {@code buf}. */
    public void write(short[] buf, int off, int len) throws IOException {
        int i = 0;
        while (i < len) {
            int n = Math.min(len - i, bytes.length / 2);
            for (int k = 0; k < n; k++) {
                short s = buf[off + i + k];
                bytes[2 * k] = (byte) s;
                bytes[2 * k + 1] = (byte) (s >> 8);
            }
            out.write(bytes, 0, 2 * n);
            i += n;
        }
        samples += len;
    }

    public long samplesWritten() {
        return samples;
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        out.close();
        try (RandomAccessFile f = new RandomAccessFile(path.toFile(), "rw")) {
            f.seek(0);
            f.write(header(samples * 2));
        }
    }

    private byte[] header(long dataBytes) {
        byte[] h = new byte[HEADER];
        ascii(h, 0, "RIFF");
        le32(h, 4, 36 + dataBytes);
        ascii(h, 8, "WAVE");
        ascii(h, 12, "fmt ");
        le32(h, 16, 16);
        le16(h, 20, 1);
        le16(h, 22, 1);
        le32(h, 24, sampleRate);
        le32(h, 28, sampleRate * 2L);
        le16(h, 32, 2);
        le16(h, 34, 16);
        ascii(h, 36, "data");
        le32(h, 40, dataBytes);
        return h;
    }

    private static void ascii(byte[] h, int at, String s) {
        for (int i = 0; i < 4; i++) {
            h[at + i] = (byte) s.charAt(i);
        }
    }

    private static void le16(byte[] h, int at, int v) {
        h[at] = (byte) v;
        h[at + 1] = (byte) (v >> 8);
    }

    private static void le32(byte[] h, int at, long v) {
        for (int i = 0; i < 4; i++) {
            h[at + i] = (byte) (v >> (8 * i));
        }
    }
}
