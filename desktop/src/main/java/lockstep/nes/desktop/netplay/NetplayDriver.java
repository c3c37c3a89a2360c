package lockstep.nes.desktop.netplay;

import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.netplay.NetplayException;

/**
 * The netplay session the window plays in place of the local game: started with the ROM opened,
 * pumped once a pass of the window's loop with this peer's buttons, shown, and closed. A session
 * ended by the network or the peer is a failure: its line goes to stderr and to the window
 * ({@link #takeFailure}), and the app then exits with 4 ({@link #failed}).
 */
public final class NetplayDriver {
    private final PrintStream err;
    private final Consumer<String> post;
    private NetplayGame game;
    private boolean soundSet;
    private boolean failed;
    private String failure;

    /** A driver reporting on {@code err} and posting on-screen messages through {@code post}. */
    public NetplayDriver(PrintStream err, Consumer<String> post) {
        this.err = err;
        this.post = post;
    }

    /**
     * Hosts or joins as {@code launch} says with {@code cart}; with {@code exitAfterFrames} (0:
     * none) both peers play that many frames and end together. False when it could not start
     * (see {@link #takeFailure}).
     */
    public boolean start(Cartridge cart, NetplayLaunch launch, String buildId, long exitAfterFrames) {
        try {
            game = NetplayGame.start(cart, launch, buildId, (int) Math.min(exitAfterFrames, 1 << 30), err);
            soundSet = false;
            err.println("run: " + game.lines().get(0));
            return true;
        } catch (NetplayException e) {
            fail(e);
            return false;
        }
    }

    private void fail(NetplayException e) {
        err.println("error: " + e.getMessage());
        close();
        failed = true;
        failure = e.getMessage();
    }

    /** A session is being played (connecting, playing or ended). */
    public boolean active() {
        return game != null;
    }

    /** The session played its last frame. */
    public boolean ended() {
        return game != null && game.ended();
    }

    /** The engine the session plays, once it plays; else null. */
    public Console console() {
        return game != null ? game.console() : null;
    }

    /**
     * One pass of the window's loop: the session pumped with this peer's buttons ({@code buttons},
     * the keys and pad of port 1); returns the frames it ran. The engine's sound is set to
     * {@code sampleRate} once it plays; the end is announced once (an ended session is not
     * pumped again: its last frame stays).
     */
    public int pump(int buttons, int sampleRate) {
        if (game.ended()) {
            return 0;
        }
        final int ran;
        try {
            ran = game.pump(buttons);
        } catch (NetplayException e) {
            fail(e);
            return 0;
        }
        if (game.console() != null) {
            if (!soundSet) {
                game.console().apu().audio().setSampleRate(sampleRate);
                soundSet = true;
            }
            if (game.ended()) {
                post.accept("netplay: the session ended");
                err.println("lockstep: " + game.result().summary());
            }
        }
        return ran;
    }

    /** The failure not yet shown, once (then null). */
    public String takeFailure() {
        final String f = failure;
        failure = null;
        return f;
    }

    /** A session failed (the network or the peer ended it): the app's exit code is 4. */
    public boolean failed() {
        return failed;
    }

    /** The status lines for the screen (empty with no session). */
    public List<String> lines() {
        return game != null ? game.lines() : List.of();
    }

    /** The two peers' engines disagreed. */
    public boolean desynced() {
        return game != null && game.desynced();
    }

    /** Ends the session (its summary on stderr when it was cut short while playing). */
    public void close() {
        if (game != null) {
            if (game.connected() && !game.ended()) {
                err.println("lockstep: " + game.result().summary());
            }
            game.close();
            game = null;
        }
    }
}
