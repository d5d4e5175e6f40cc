"""Records where libnavier.so is at install time (navier/_where.py): the build folder of the source tree this
package comes from ($NAVIER_BUILD, else ../build), or the install prefix when installed from
PREFIX/share/navier/python. Everything else is in pyproject.toml. Offline install into a virtual environment
made with --system-site-packages (numpy, setuptools from the system):  pip install --no-build-isolation ./python"""
import os

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildPy(build_py):
    def run(self):
        super().run()
        build = os.environ.get("NAVIER_BUILD") or os.path.join(os.path.dirname(HERE), "build")
        prefix = os.path.normpath(os.path.join(HERE, "..", "..", ".."))  # PREFIX/share/navier/python
        target = os.path.join(self.build_lib, "navier", "_where.py")
        with open(target, "w") as f:
            f.write('"""Written by setup.py at install time: where to look for libnavier.so."""\n')
            f.write(f"BUILD = {os.path.abspath(build)!r}\nPREFIX = {prefix!r}\n")


setup(cmdclass={"build_py": BuildPy})
