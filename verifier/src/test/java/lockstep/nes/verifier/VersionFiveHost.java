package lockstep.nes.verifier;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import lockstep.nes.verifier.host.EngineHost;

/**
 * An engine host that says it speaks protocol version 5 (before TRACE): this build's host with
 * the version in its HELLO rewritten, as a build of that version would send it.
 */
public final class VersionFiveHost {
    /** Where HELLO's version sits: after the length (4), the type (1) and the magic (8). */
    private static final int VERSION_OFFSET = 13;

    private VersionFiveHost() {
    }

    public static void main(String[] args) throws IOException {
        PrintStream protocolOut = System.out;
        System.setOut(System.err);
        OutputStream out = new FilterOutputStream(protocolOut) {
            private long written;

            @Override
            public void write(int b) throws IOException {
                out.write(written == VERSION_OFFSET ? 0 : written == VERSION_OFFSET + 1 ? 5 : b);
                written++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (written > VERSION_OFFSET + 1) {
                    out.write(b, off, len);
                    written += len;
                    return;
                }
                for (int i = 0; i < len; i++) {
                    write(b[off + i]);
                }
            }
        };
        System.exit(new EngineHost(System.in, out, "lockstep-nes/v5").serve());
    }
}
