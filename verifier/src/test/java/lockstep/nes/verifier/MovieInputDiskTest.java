package lockstep.nes.verifier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.List;

import lockstep.nes.core.Console;
import lockstep.nes.core.cart.fds.DiskImage;
import lockstep.nes.core.cart.fds.DiskSystem;
import lockstep.nes.core.cart.fds.FdsBios;
import lockstep.nes.core.cart.fds.FdsBoard;
import lockstep.nes.core.movie.Fm2;
import lockstep.nes.core.movie.Movie;
import org.junit.jupiter.api.Test;

/** An FCEUX movie's disk commands (4 insert/eject, 8 next side) reach a disk system's drive, frame by frame. */
class MovieInputDiskTest {
    /** A two-sided disk with no files. */
    static byte[] disk() {
        byte[] image = new byte[16 + 2 * DiskImage.FDS_SIDE];
        image[0] = 'F';
        image[1] = 'D';
        image[2] = 'S';
        image[3] = 0x1A;
        image[4] = 2;
        for (int side = 0; side < 2; side++) {
            int at = 16 + side * DiskImage.FDS_SIDE;
            image[at] = 1;
            byte[] v = "*NINTENDO-HVC*".getBytes(StandardCharsets.US_ASCII);
            System.arraycopy(v, 0, image, at + 1, v.length);
            image[at + 56] = 2;
        }
        return image;
    }

    @Test
    void ejectSelectTheOtherSideAndInsertIt() throws Exception {
        Console console = Console.create(DiskSystem.cartridge("two.fds", disk(), new byte[FdsBios.SIZE], 0));
        FdsBoard board = (FdsBoard) console.mapper();
        String fm2 = "version 3\nemuVersion 22020\nFDS 1\nport0 1\nport1 1\nport2 0\n"
                + "|0|........|........||\n"
                + "|" + Fm2.COMMAND_FDS_INSERT + "|........|........||\n"
                + "|" + Fm2.COMMAND_FDS_SIDE + "|........|........||\n"
                + "|" + Fm2.COMMAND_FDS_INSERT + "|........|........||\n";
        Movie movie = Fm2.parse(fm2, "disk.fm2");
        MovieInput input = new MovieInput(movie);
        List<Integer> sides = new java.util.ArrayList<>();
        for (int f = 0; f < 4; f++) {
            input.apply(f, console);
            sides.add(board.insertedSide());
            console.runFrame();
        }
        assertEquals(List.of(0, -1, -1, 1), sides);
    }
}
