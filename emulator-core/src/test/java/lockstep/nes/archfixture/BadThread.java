package lockstep.nes.archfixture;

/** Fixture: starts a thread (must be caught). */
public final class BadThread {
    public void go() {
        new Thread(() -> { }).start();
    }
}
