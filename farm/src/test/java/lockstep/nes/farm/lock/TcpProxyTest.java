package lockstep.nes.farm.lock;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TcpProxyTest {
    private ServerSocket echo;
    private TcpProxy proxy;

    @BeforeEach
    void startEcho() throws IOException {
        echo = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread t = new Thread(() -> {
            while (!echo.isClosed()) {
                try {
                    Socket s = echo.accept();
                    Thread c = new Thread(() -> {
                        try (s) {
                            s.getInputStream().transferTo(s.getOutputStream());
                        } catch (IOException e) {
                            // client went away
                        }
                    });
                    c.setDaemon(true);
                    c.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        t.setDaemon(true);
        t.start();
        proxy = TcpProxy.start("127.0.0.1", echo.getLocalPort());
    }

    @AfterEach
    void stop() throws IOException {
        proxy.close();
        echo.close();
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        s.setSoTimeout(300);
        return s;
    }

    private static byte[] roundTrip(Socket s, String msg) throws IOException {
        byte[] out = msg.getBytes(StandardCharsets.US_ASCII);
        OutputStream o = s.getOutputStream();
        o.write(out);
        o.flush();
        byte[] in = new byte[out.length];
        InputStream i = s.getInputStream();
        int n = 0;
        while (n < in.length) {
            int r = i.read(in, n, in.length - n);
            if (r < 0) {
                throw new IOException("closed");
            }
            n += r;
        }
        return in;
    }

    @Test
    void forwardsBothWays() throws IOException {
        try (Socket s = connect()) {
            assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), roundTrip(s, "hello"));
        }
    }

    @Test
    void cutBreaksOpenAndNewConnectionsUntilRestored() throws IOException {
        try (Socket s = connect()) {
            roundTrip(s, "a");
            proxy.cut();
            assertThrows(IOException.class, () -> roundTrip(s, "b"));
        }
        try (Socket s = connect()) {
            assertThrows(IOException.class, () -> roundTrip(s, "c"));
        }
        proxy.restore();
        try (Socket s = connect()) {
            assertArrayEquals("d".getBytes(StandardCharsets.US_ASCII), roundTrip(s, "d"));
        }
    }

    @Test
    void blackholeSilentlyDropsUntilRestored() throws IOException {
        Socket s = connect();
        roundTrip(s, "a");
        proxy.blackhole();
        assertThrows(SocketTimeoutException.class, () -> roundTrip(s, "b"));
        try (Socket fresh = connect()) {
            assertThrows(SocketTimeoutException.class, () -> roundTrip(fresh, "c"));
        }
        proxy.restore();
        // the black-holed connection lost bytes: it is closed rather than left corrupt
        assertThrows(IOException.class, () -> roundTrip(s, "e"));
        s.close();
        try (Socket again = connect()) {
            assertArrayEquals("f".getBytes(StandardCharsets.US_ASCII), roundTrip(again, "f"));
        }
    }
}
