package lockstep.nes.core.apu;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;

import lockstep.nes.core.OutputFile;

/**
 * Writes 16-bit signed mono PCM to a RIFF/WAVE file through {@link OutputFile}: the samples go to
 * a temporary file whose header's sizes are patched on {@link #close}, which then renames it over
 * the target; {@link #abandon} (after a write error) leaves nothing at the target. A FIFO or a
 * character device is streamed, with the sizes of a stream of unknown length (0xFFFFFFFF), as
 * programs that write WAV to a pipe do. Typical use with a console:
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

    /** The RIFF and data sizes of a stream whose length is not known when its header is sent. */
    private static final long UNKNOWN = 0xFFFFFFFFL;

    private final int sampleRate;
    private final OutputFile out;
    private final byte[] bytes = new byte[16384];
    private long samples;
    private boolean closed;

    public WavWriter(Path path, int sampleRate) throws IOException {
        this.sampleRate = sampleRate;
        this.out = OutputFile.open(path);
        try {
            out.write(header(out.seekable() ? 0 : UNKNOWN));
        } catch (IOException e) {
            out.close();
            throw e;
        }
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

    /** Patches the header's sizes and puts the file in place (see the class comment). */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (out.seekable()) {
                out.writeAt(0, header(samples * 2));
            }
            out.commit();
        } finally {
            out.close();
        }
    }

    /** Drops what was written: no file is left at the target (a stream is just closed). */
    public void abandon() throws IOException {
        closed = true;
        out.close();
    }

    private byte[] header(long dataBytes) {
        byte[] h = new byte[HEADER];
        ascii(h, 0, "RIFF");
        le32(h, 4, dataBytes == UNKNOWN ? UNKNOWN : 36 + dataBytes);
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
