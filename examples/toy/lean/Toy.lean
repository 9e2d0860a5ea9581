import Toy.Basic
