package sandbox

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// bridge, run by the helper inside the command's new network namespace,
// brings loopback up, listens on 127.0.0.1 and starts the bridge process
// that forwards each connection to synaps's proxy over its unix socket —
// a path socket, which, unlike an address, reaches across network
// namespaces. It returns the listening port, for the proxy variables.
//
// The bridge is a process of its own because the helper is about to
// become the command. It is the command's child, in its process group
// (so synaps's group kill ends it) and killed by the kernel when the
// command ends (parent-death signal; the helper's thread that starts it
// is the one that execve's, so the signal waits for the command).
func bridge(socket string) (port string, err error) {
	if err := loopbackUp(); err != nil {
		return "", fmt.Errorf("network namespace: bringing lo up: %w", err)
	}
	l, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		return "", fmt.Errorf("network namespace: %w", err)
	}
	lf, err := l.(*net.TCPListener).File()
	l.Close()
	if err != nil {
		return "", fmt.Errorf("network namespace: %w", err)
	}
	defer lf.Close()
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	cmd := exec.Command(exe, bridgeArg, socket)
	cmd.ExtraFiles = []*os.File{lf}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("network namespace: starting the bridge: %w", err)
	}
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port), nil
}

// loopbackUp sets the IFF_UP flag of lo, down in a new namespace.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// runBridge is the bridge mode: accept on fd 3, forward to the socket.
func runBridge(args []string) int {
	if len(args) != 1 {
		fmt.Fprintf(os.Stderr, "usage: %s SOCKET\n", bridgeArg)
		return 2
	}
	l, err := net.FileListener(os.NewFile(3, "listener"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "synaps sandbox bridge:", err)
		return 1
	}
	for {
		c, err := l.Accept()
		if err != nil {
			return 1
		}
		go func() {
			defer c.Close()
			u, err := net.Dial("unix", args[0])
			if err != nil {
				return
			}
			defer u.Close()
			go func() { io.Copy(u, c); u.(*net.UnixConn).CloseWrite() }() //nolint:errcheck
			io.Copy(c, u)                                                 //nolint:errcheck
		}()
	}
}
