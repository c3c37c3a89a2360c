package lockstep.nes.desktop.cheats;

/** A cheat list file that cannot be read: one line naming the file, the line and the reason. */
public final class CheatListException extends Exception {
    public CheatListException(String message) {
        super(message);
    }
}
