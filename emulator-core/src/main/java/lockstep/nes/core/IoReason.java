package lockstep.nes.core;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why a file could not be read, in a person's words: the NIO exceptions carry the path as their
 * message ("/x/game.nes") and the reason in their type, so "cannot read (/x/game.nes)" would
 * name the file twice and the reason never.
 */
public final class IoReason {
    private IoReason() {
    }

    /** "permission denied", "not found", "a folder on its path is not a folder", or the system's reason. */
    public static String of(IOException e) {
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "not found";
        }
        if (e instanceof NotDirectoryException) {
            return "a folder on its path is not a folder";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
