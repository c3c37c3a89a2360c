package lockstep.nes.farm.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** Checks on a SQLite store's file made before the driver opens it (which creates a missing file). */
final class SqliteFile {
    /** The first 16 bytes of every SQLite database file. */
    private static final byte[] MAGIC = "SQLite format 3\0".getBytes(StandardCharsets.US_ASCII);

    private SqliteFile() {
    }

    /**
     * Refuses a missing file (unless {@code mayCreate}) and a file that is not a SQLite database
     * (an empty file is a new database to SQLite, so only {@code mayCreate} accepts one).
     */
    static void check(Path file, boolean mayCreate) throws StoreRefusedException {
        if (!Files.exists(file)) {
            if (!mayCreate) {
                throw new StoreRefusedException(file + ": no farm store there ('farm submit' creates one)");
            }
            return;
        }
        byte[] head;
        try (InputStream in = Files.newInputStream(file)) {
            head = in.readNBytes(MAGIC.length);
        } catch (IOException e) {
            throw new StoreRefusedException(file + ": cannot read the farm store (" + e.getClass().getSimpleName()
                    + (e.getMessage() != null && !e.getMessage().contains(file.toString()) ? ": " + e.getMessage() : "") + ")");
        }
        if (head.length == 0 && mayCreate) {
            return;
        }
        if (!Arrays.equals(head, MAGIC)) {
            throw new StoreRefusedException(file + ": not a farm store (not a SQLite database)");
        }
    }
}
