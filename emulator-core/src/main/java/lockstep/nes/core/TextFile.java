package lockstep.nes.core;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a file that must be UTF-8 text (a movie, a golden log, a token), so that a binary file
 * given in its place (a ROM, a UTF-16 file) is named as such, with the line where it stops
 * being text, instead of a decoder's "Input length = 1". A NUL byte counts as not text (UTF-16
 * text is full of them, and no text format here has one).
 */
public final class TextFile {
    private TextFile() {
    }

    /**
     * The file's text. The exception's message is one line naming the file: "FILE: not found",
     * "FILE: not a file", "FILE: not a text file (line N)" or "FILE: cannot read (reason)".
     */
    public static String read(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IOException(file + ": " + (Files.exists(file) ? "not a file" : "not found"));
        }
        final byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            throw new IOException(file + ": cannot read (" + IoReason.of(e) + ")", e);
        }
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, out, true);
        if (!r.isError()) {
            r = decoder.flush(out);
        }
        int bad = r.isError() ? in.position() : bytes.length;
        for (int i = 0; i < bad; i++) {
            if (bytes[i] == 0) {
                bad = i;
                break;
            }
        }
        if (bad < bytes.length) {
            throw new IOException(file + ": not a text file (line " + lineAt(bytes, bad) + ")");
        }
        return out.flip().toString();
    }

    /** The 1-based line of byte {@code offset}. */
    private static int lineAt(byte[] bytes, int offset) {
        int line = 1;
        for (int i = 0; i < offset; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        return line;
    }
}
